/**
 * The repository stands on its own: nothing in it may send a reader to a document it does not contain — a design
 * or specification file kept elsewhere, a ticket by number, a link to a path outside the tree or to a private
 * host. Say the thing, link to a page of ours, or link to a public URL.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

export interface OutsideReference {
  line: number;
  what: string;
  text: string;
}

/** Words that name a document or ticket the repository does not hold. */
const WORDS: Array<{ pattern: RegExp; what: string }> = [
  { pattern: /\bDESIGN(\.md)?\b/, what: 'a design document outside the repository' },
  { pattern: /\bSPEC(\.md)?\b/, what: 'a specification outside the repository' },
  { pattern: /\bissues? #?\d+\b/i, what: 'a ticket by number' },
  { pattern: /\bfindings? \d+\b/i, what: 'a finding of a ticket by number' },
];

/** Hosts a reader's browser cannot reach: loopback, private ranges, internal names. */
const PRIVATE_HOST =
  /^(localhost|127\.|0\.0\.0\.0|10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|\[::1\])|\.(local|internal|lan|corp|home)$/i;

/** Markdown link targets: `[text](target)` and `<a href="target">`, outside code spans and fences. */
function linkTargets(line: string): string[] {
  const prose = line.replace(/`[^`]*`/g, '');
  return [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)|href="([^"]+)"/g)].map((m) => (m[1] ?? m[2])!);
}

function linkProblem(target: string, file: string, root: string): string | null {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(target)?.[1]?.toLowerCase();
  if (scheme === 'http' || scheme === 'https') {
    const host = new URL(target).hostname;
    return PRIVATE_HOST.test(host) ? `a link to a private host (${host})` : null;
  }
  if (scheme === 'mailto') return null;
  if (scheme) return `a link of scheme ${scheme}:`;
  if (target.startsWith('#')) return null;
  const path = decodeURIComponent(target.split('#')[0]!);
  if (path.startsWith('/')) return 'a link to an absolute path';
  const absolute = resolve(dirname(file), path);
  const top = resolve(root);
  if (absolute !== top && !absolute.startsWith(top + sep))
    return `a link out of the repository (${relative(top, absolute)})`;
  return null;
}

/** Every reference out of the repository in `text` (the file `file` under `root`; links only for Markdown). */
export function outsideReferences(text: string, file: string, root: string): OutsideReference[] {
  const found: OutsideReference[] = [];
  const markdown = file.endsWith('.md');
  let fence = false;
  text.split('\n').forEach((line, i) => {
    for (const { pattern, what } of WORDS) if (pattern.test(line)) found.push({ line: i + 1, what, text: line });
    if (line.includes('/work/')) found.push({ line: i + 1, what: "a path of a developer's machine", text: line });
    if (!markdown) return;
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) return;
    for (const target of linkTargets(line)) {
      const problem = linkProblem(target, file, root);
      if (problem) found.push({ line: i + 1, what: problem, text: line });
    }
  });
  return found;
}

const SKIP = new Set(['node_modules', '.git', 'dist', 'site', 'coverage', '.venv', 'package-lock.json']);

/** The text files of the repository at `root` (no dependencies, build output or binaries). */
export function repositoryTextFiles(root: string, dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (SKIP.has(entry.name)) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return repositoryTextFiles(root, path);
    if (!entry.isFile()) return [];
    return readFileSync(path).subarray(0, 8000).includes(0) ? [] : [path];
  });
}
