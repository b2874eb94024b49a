/** Compiles examples the way an application would: strict TypeScript, Node's ES modules, into `out/` beside them. */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from '../support/cli.js';

const exec = promisify(execFile);

/** Writes `<dir>/<config>` listing `files` and runs tsc on it; throws tsc's report when they do not compile. */
export async function compileStrict(dir: string, files: string[], config = 'tsconfig.json'): Promise<void> {
  const compilerOptions = {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noUncheckedIndexedAccess: true,
    types: ['node'],
    typeRoots: [join(repoRoot, 'node_modules/@types')],
    outDir: 'out',
  };
  await writeFile(join(dir, config), JSON.stringify({ compilerOptions, files }));
  await exec(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', join(dir, config)]).catch(
    (err: { stdout?: string }) => {
      throw new Error(`${files.join(', ')} do not typecheck:\n${err.stdout}`);
    },
  );
}
