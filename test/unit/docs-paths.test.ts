/**
 * The docs name the code's files, and the code moves: every file of ours a page names (docs/**.md and the README)
 * must exist. Three spellings are checked: a path from the root (`src/core/users.ts`), a path from a folder of
 * src/ (`core/users.ts`, `pull/runner.ts`, `operator/controller/`), and a bare `.ts` file name (`engine.ts`),
 * which must be some file of the repository.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SKIP = new Set(['node_modules', '.git', 'site', 'dist', 'coverage', '.venv']);

/** The repository's files and folders, relative to its root (folders end with `/`). */
function tree(dir = ROOT): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    const rel = relative(ROOT, path);
    return entry.isDirectory() ? [`${rel}/`, ...tree(path)] : [rel];
  });
}

/** The paths of ours `text` names that `paths` (a tree as `tree` lists it) does not hold. */
export function missingPaths(text: string, paths: string[]): string[] {
  const have = new Set(paths);
  const exists = (p: string) => have.has(p) || have.has(`${p.replace(/\/$/, '')}/`);
  const fileNames = new Set(paths.filter((p) => !p.endsWith('/')).map((p) => p.slice(p.lastIndexOf('/') + 1)));
  // Every folder under src/, by its name: `pull` → ['src/providers/pull/'].
  const srcFolders = new Map<string, string[]>();
  for (const p of paths) {
    if (!p.startsWith('src/') || !p.endsWith('/')) continue;
    const name = p.slice(0, -1).split('/').at(-1)!;
    srcFolders.set(name, [...(srcFolders.get(name) ?? []), p]);
  }
  const missing = new Set<string>();
  for (const [, path] of text.matchAll(/(?<![\w./-])(src\/[\w./-]*[\w/])/g)) if (!exists(path!)) missing.add(path!);
  for (const [, token] of text.matchAll(/`([\w.-]+(?:\/[\w.-]+)*\/?)`/g)) {
    const segments = token!.split('/');
    if (token!.startsWith('src/')) continue;
    if (segments.length === 1) {
      if (/^[\w-][\w.-]*\.ts$/.test(token!) && !fileNames.has(token!)) missing.add(token!);
      continue;
    }
    const folders = srcFolders.get(segments[0]!);
    if (!folders || !(token!.endsWith('.ts') || token!.endsWith('/'))) continue;
    if (!folders.some((folder) => exists(`${dirname(folder.slice(0, -1))}/${token}`))) missing.add(token!);
  }
  return [...missing];
}

function markdownPages(dir = join(ROOT, 'docs')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? markdownPages(join(dir, entry.name))
      : entry.name.endsWith('.md')
        ? [join(dir, entry.name)]
        : [],
  );
}

describe('Docs: the files of ours a page names exist', () => {
  const paths = tree();

  it('finds a moved or deleted file in each spelling, and passes what exists', () => {
    const fake = [
      'src/',
      'src/core/',
      'src/core/users.ts',
      'src/providers/',
      'src/providers/pull/',
      'src/providers/pull/runner.ts',
      'test/',
      'test/x.ts',
    ];
    expect(
      missingPaths(
        '`src/core/users.ts`, src/core/, `core/users.ts`, `pull/runner.ts`, `pull/`, `users.ts`, `x.ts`.',
        fake,
      ),
    ).to.deep.equal([]);
    expect(missingPaths('see src/core/groups.ts.', fake)).to.deep.equal(['src/core/groups.ts']);
    expect(
      missingPaths('`src/store/redis.ts` and `core/groups.ts`, `pull/apply.ts`, `providers/oauth/`', fake),
    ).to.deep.equal(['src/store/redis.ts', 'core/groups.ts', 'pull/apply.ts', 'providers/oauth/']);
    expect(missingPaths('`groups.ts`, `.ts`', fake)).to.deep.equal(['groups.ts']);
    // Not ours to check: paths of other folders, globs, other extensions.
    expect(
      missingPaths('`deploy/kind/up.sh`, `guides/*.ts`, `layer.js`, `mkdocs.yml`, `test/support/gone.ts`', fake),
    ).to.deep.equal([]);
  });

  for (const page of [...markdownPages(), join(ROOT, 'README.md')]) {
    const name = relative(ROOT, page);
    it(name, () => {
      expect(
        missingPaths(readFileSync(page, 'utf8'), paths),
        `${name} names files that do not exist (moved? renamed?)`,
      ).to.deep.equal([]);
    });
  }
});
