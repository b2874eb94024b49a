/**
 * The package as a user installs it: `npm pack` in a copy of the checkout (its prepack builds dist/), the
 * tarball unpacked into an application's node_modules. A file missing from "files" or "exports" fails here.
 * Built once per test run (the build takes a while) and removed when the process exits.
 */
import { execFile } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { cp, mkdir, mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './cli.js';

const exec = promisify(execFile);

export const packageName = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { name: string }).name;

export interface Installed {
  /** An application directory whose node_modules holds the package. */
  app: string;
  /** Where the package was unpacked (`<app>/node_modules/<name>`). */
  dir: string;
}

let installed: Promise<Installed> | undefined;

export function installPackedPackage(): Promise<Installed> {
  installed ??= build();
  return installed;
}

async function build(): Promise<Installed> {
  const work = await mkdtemp(join(tmpdir(), 'dsync-packed-'));
  process.once('exit', () => rmSync(work, { recursive: true, force: true }));
  const checkout = join(work, 'checkout');
  await mkdir(checkout);
  for (const f of ['package.json', 'tsconfig.json', 'tsconfig.build.json', 'README.md', 'src', 'crds']) {
    await cp(join(repoRoot, f), join(checkout, f), { recursive: true });
  }
  await symlink(join(repoRoot, 'node_modules'), join(checkout, 'node_modules'));
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', work], {
    cwd: checkout,
    maxBuffer: 16 * 1024 * 1024,
  });
  const tarball = join(
    work,
    (JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ filename: string }>)[0]!.filename,
  );
  const app = join(work, 'app');
  const dir = join(app, 'node_modules', packageName);
  await mkdir(dir, { recursive: true });
  await exec('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
  // Its dependencies are the checkout's: npm would fetch the same versions from the registry.
  await symlink(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
  return { app, dir };
}
