/**
 * Files a reader can hold in their head: no source, test, script or benchmark file of ours over 400 lines (the
 * generated client types aside). A file that grows past it has two concepts in it; split it by what they are.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_LINES = 400;
const GENERATED = new Set(['src/client/api-types.ts']);
const CODE = /\.(ts|js|cjs|mjs|sh)$/;

function* codeFiles(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules') yield* codeFiles(path);
    } else if (CODE.test(entry.name)) yield relative(ROOT, path);
  }
}

describe('file length', () => {
  it(`no file of src/, test/ or scripts/ is over ${MAX_LINES} lines (generated ones aside)`, () => {
    const files = ['src', 'test', 'scripts'].flatMap((top) => [...codeFiles(join(ROOT, top))]);
    expect(files.length, 'files looked at').to.be.above(300);
    const long = files.flatMap((file) => {
      const lines = readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1;
      return lines > MAX_LINES && !GENERATED.has(file) ? [`${file}: ${lines} lines`] : [];
    });
    expect(long).to.deep.equal([]);
  });
});
