/** Rewrites the committed docs/openapi.json from the route table: `npm run openapi`. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiDocument } from './api-routes.js';

export const OPENAPI_FILE = fileURLToPath(new URL('../../docs/openapi.json', import.meta.url));

export const openApiText = (): string => `${JSON.stringify(openApiDocument(), null, 2)}\n`;

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(OPENAPI_FILE, openApiText());
  process.stdout.write(`wrote ${OPENAPI_FILE}\n`);
}
