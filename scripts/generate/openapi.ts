/**
 * Rewrites the committed docs/openapi.json from the route table, and the typed client's types from it
 * (src/client/api-types.ts, by openapi-typescript): `npm run openapi`.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from '../../src/http/api-routes.js';

export const OPENAPI_FILE = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));
export const CLIENT_TYPES_FILE = fileURLToPath(new URL('../../src/client/api-types.ts', import.meta.url));

export const openApiText = (): string => `${JSON.stringify(openApiDocument(), null, 2)}\n`;

/** The client's types (openapi-typescript is a dev dependency: loaded only here, never by the service). */
export async function clientTypesText(): Promise<string> {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const ast = await openapiTS(JSON.parse(openApiText()) as Parameters<typeof openapiTS>[0]);
  return `/** Generated from docs/openapi.json by openapi-typescript (\`npm run openapi\`): do not edit. */\n\n${astToString(ast)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(OPENAPI_FILE, openApiText());
  writeFileSync(CLIENT_TYPES_FILE, await clientTypesText());
  process.stdout.write(`wrote ${OPENAPI_FILE} and ${CLIENT_TYPES_FILE}\n`);
}
