# dsync image: `serve` by default; `operator` and `cron process-events` are the other commands.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npx tsc -p tsconfig.build.json && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY crds ./crds
COPY assets ./assets
USER node
EXPOSE 5225 9464
ENTRYPOINT ["node", "dist/cli.js"]
CMD ["serve"]
