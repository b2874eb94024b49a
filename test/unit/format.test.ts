/**
 * One formatter for the tree (biome.json, `npm run format` writes it): every file it covers must be as Biome
 * formats it, and Biome must be the one reading that configuration (a misformatted line comes back changed).
 */
import { execFile } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const BIOME = join(ROOT, 'node_modules/.bin/biome');

/** Runs biome in the repository's root; resolves its exit status and output (it exits 1 when a file differs). */
function biome(args: string[], stdin?: string): Promise<{ status: number; out: string }> {
  return new Promise((done) => {
    const child = execFile(BIOME, args, { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      done({ status: err ? Number((err as { code?: number }).code ?? 1) : 0, out: `${stdout}${stderr}` });
    });
    if (stdin !== undefined) child.stdin!.end(stdin);
  });
}

describe('formatting (Biome)', function () {
  this.timeout(60_000);

  it('every file Biome covers is formatted (run `npm run format` to fix)', async () => {
    const { status, out } = await biome(['format', '.']);
    expect(status, out.slice(-4000)).to.equal(0);
  });

  it('a misformatted file comes back in the house style (single quotes, semicolons, trailing commas, 2 spaces)', async () => {
    const { status, out } = await biome(
      ['format', '--stdin-file-path=fixture.ts'],
      'const  a = {b:"c",d:[1,2]}\nif (a) {\n    f(a)\n}\n',
    );
    expect(status).to.equal(0);
    expect(out).to.equal("const a = { b: 'c', d: [1, 2] };\nif (a) {\n  f(a);\n}\n");
  });
});
