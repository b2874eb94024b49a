/**
 * `npm run docs:reference`: rewrites every generated page of docs/reference/ from the code
 * (scripts/docs/reference/pages.ts).
 */
import { writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { REFERENCE_DIR, REFERENCE_PAGES } from './reference/pages.js';

for (const { file, render } of REFERENCE_PAGES) {
  const path = join(REFERENCE_DIR, file);
  writeFileSync(path, render());
  process.stdout.write(`wrote ${relative(process.cwd(), path)}\n`);
}
