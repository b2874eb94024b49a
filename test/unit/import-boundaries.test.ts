/**
 * The import boundaries of src/ (.dependency-cruiser.cjs), checked by dependency-cruiser: the real tree must
 * pass, and a fixture tree with one wrong import per rule must be reported, so the check itself can fail.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect } from 'chai';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** Runs depcruise on `src` of `cwd` and returns its violations (it exits non-zero when there are any). */
async function violations(cwd: string): Promise<Violation[]> {
  const run = promisify(execFile)(process.execPath, [DEPCRUISE, 'src', '--config', CONFIG, '--output-type', 'json'], {
    cwd,
    maxBuffer: 64 * 1024 * 1024,
  });
  const stdout = await run.then(
    (r) => r.stdout,
    (err: { stdout?: string }) => err.stdout ?? '',
  );
  const report = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations;
}

describe('import boundaries (dependency-cruiser)', function () {
  this.timeout(60_000);

  it('src/ has no violation', async () => {
    const found = await violations(ROOT);
    expect(found.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).to.deep.equal([]);
  });

  describe('a tree with wrong imports', () => {
    let dir: string;
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'dsync-boundaries-'));
      const files: Record<string, string> = {
        'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } }),
        'src/core/model.ts': `export type Id = string;\n`,
        'src/core/uses-http.ts': `import { route } from '../http/route.js';\nexport const r = route;\n`,
        'src/http/route.ts': `import { Memory } from '../store/memory/store.js';\nexport const route = new Memory();\n`,
        'src/http/routes/users.ts': `import { groups } from './groups.js';\nexport const users = groups;\n`,
        'src/http/routes/groups.ts': `import { route } from '../route.js';\nexport const groups = route;\n`,
        'src/http/setup/routes.ts': `import { users } from '../routes/users.js';\nexport const setup = users;\n`,
        'src/store/memory/store.ts': `import type { Id } from '../../core/model.js';\nexport class Memory { id: Id = ''; }\n`,
        'src/store/memory/leases.ts': `import { key } from '../redis/keys.js';\nexport const lease = key;\n`,
        'src/store/redis/keys.ts': `export const key = 'k';\n`,
        'src/store/redis/records.ts': `import { Memory } from '../memory/store.js';\nexport const record = new Memory();\n`,
        'src/store/open-store.ts': `import { Memory } from './memory/store.js';\nimport { key } from './redis/keys.js';\nexport const open = () => [new Memory(), key];\n`,
        'src/operator/a.ts': `import { b } from './b.js';\nexport const a = () => b;\n`,
        'src/operator/b.ts': `import { a } from './a.js';\nexport const b = () => a;\n`,
      };
      for (const [path, text] of Object.entries(files)) {
        await mkdir(dirname(join(dir, path)), { recursive: true });
        await writeFile(join(dir, path), text);
      }
    });
    after(() => rm(dir, { recursive: true, force: true }));

    it('reports core importing outside core, an adapter imported by http, a route file importing another, one adapter importing the other, and a cycle', async () => {
      const found = (await violations(dir)).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
      expect(found).to.include('core-is-inward: src/core/uses-http.ts → src/http/route.ts');
      expect(found).to.include('no-store-adapters-outside-composition: src/http/route.ts → src/store/memory/store.ts');
      expect(found).to.include('http-routes-stand-alone: src/http/routes/users.ts → src/http/routes/groups.ts');
      expect(found).to.include('http-routes-stand-alone: src/http/setup/routes.ts → src/http/routes/users.ts');
      // A route file importing what lives outside routes/ is the allowed direction.
      expect(found.filter((v) => v.startsWith('http-routes-stand-alone: src/http/routes/groups.ts'))).to.deep.equal([]);
      expect(found).to.include('memory-store-not-redis: src/store/memory/leases.ts → src/store/redis/keys.ts');
      expect(found).to.include('redis-store-not-memory: src/store/redis/records.ts → src/store/memory/store.ts');
      expect(found.some((v) => v.startsWith('no-cycles: src/operator/'))).to.equal(true, found.join('\n'));
      // The store adapter importing the port in core, and the composition importing both adapters, are allowed.
      expect(
        found.filter((v) => v.includes('src/store/memory/store.ts →') || v.includes('src/store/open-store.ts →')),
      ).to.deep.equal([]);
    });
  });
});
