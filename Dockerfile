# dsync image: `serve` by default; `operator` and `cron process-events` are the other commands.
# Base: Node.js 24 (LTS, security fixes until April 2028), pinned by digest so a rebuild gets the same bytes;
# the suite runs on the same version (NODE_IMAGE_VERSION in test/tools.sh). To move to a newer 24.x, change the
# tag, its digest (`docker buildx imagetools inspect node:<tag>` shows it) and NODE_IMAGE_VERSION together.
ARG NODE_IMAGE=node:24.21.0-bookworm-slim@sha256:2fe369e969550cde8e867afc3fe370b260140cab4a23d467074295b42163d553

FROM ${NODE_IMAGE} AS build
# PEM certificates to trust for `npm ci` on top of Node.js' own, where a TLS-intercepting proxy stands between the
# build and the npm registry; only this stage sees them, the image does not carry them.
ARG EXTRA_CA_CERTS=""
WORKDIR /app
COPY package.json package-lock.json ./
RUN if [ -n "$EXTRA_CA_CERTS" ]; then printf '%s\n' "$EXTRA_CA_CERTS" >/tmp/extra-ca.pem && export NODE_EXTRA_CA_CERTS=/tmp/extra-ca.pem; fi && \
    npm ci --no-audit --no-fund && rm -f /tmp/extra-ca.pem
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
RUN npx tsc -p tsconfig.build.json && npm prune --omit=dev

FROM ${NODE_IMAGE}
WORKDIR /app
ENV NODE_ENV=production
# A fixed 16 MB young generation (Node.js 20's size): Node.js 22+ sizes it by the machine's memory, which makes a
# large directory sync use much more memory for no CPU gained (docs/design/performance.md).
ENV NODE_OPTIONS=--max-semi-space-size=16
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY crds ./crds
COPY assets ./assets
USER node
EXPOSE 5225 9464
ENTRYPOINT ["node", "dist/cli.js"]
CMD ["serve"]
