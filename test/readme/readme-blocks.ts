/**
 * Tested examples of the README and the docs pages: each fenced block right after a `<!-- <tag>: <attributes> -->`
 * comment, with the indentation of a list item removed (what a reader copies from the rendered page).
 * `docs-test` blocks (docs/ only) are run generically by docs-examples.test.ts; `readme-test: <role>` blocks, in
 * the README or a docs page, are each read by the test of their role.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '../support/cli.js';

export const DOCS_DIR = join(repoRoot, 'docs');

export interface MarkedBlock {
  /** What follows `<tag>:` in the marker, trimmed. */
  attributes: string;
  lang: string;
  code: string;
  line: number;
}

export interface Block {
  role: string;
  lang: string;
  code: string;
  line: number;
}

/** Every block marked with `<!-- <tag>: … -->` in `text` (from `file`, named in errors). */
export function markedBlocks(text: string, file: string, tag: string): MarkedBlock[] {
  const lines = text.split('\n');
  const marker = new RegExp(`^\\s*<!-- ${tag}: (.+?) -->\\s*$`);
  const blocks: MarkedBlock[] = [];
  lines.forEach((line, i) => {
    const found = marker.exec(line);
    if (!found) return;
    const fence = /^(\s*)```(\w*)\s*$/.exec(lines[i + 1] ?? '');
    if (!fence) throw new Error(`${file}:${i + 1}: a ${tag} marker must be followed by a code fence`);
    const indent = fence[1]!.length;
    const end = lines.findIndex((l, j) => j > i + 1 && l.trim() === '```');
    if (end < 0) throw new Error(`${file}:${i + 2}: unterminated code fence`);
    const code = lines.slice(i + 2, end).map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)));
    blocks.push({ attributes: found[1]!.trim(), lang: fence[2]!, code: `${code.join('\n')}\n`, line: i + 1 });
  });
  return blocks;
}

export function readmeText(): string {
  return readFileSync(join(repoRoot, 'README.md'), 'utf8');
}

/** A docs page's text, by its path under docs/ (`operating/helm.md`). */
export function docsText(page: string): string {
  return readFileSync(join(DOCS_DIR, page), 'utf8');
}

/** Every Markdown file under `dir`, as absolute paths. */
export function markdownFiles(dir = DOCS_DIR): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? markdownFiles(join(dir, entry.name))
      : entry.name.endsWith('.md')
        ? [join(dir, entry.name)]
        : [],
  );
}

export function readmeBlocks(text = readmeText(), file = 'README.md'): Block[] {
  return markedBlocks(text, file, 'readme-test').map(({ attributes, ...block }) => {
    if (!/^[\w-]+$/.test(attributes))
      throw new Error(`${file}:${block.line}: a readme-test role is one word, not "${attributes}"`);
    return { role: attributes, ...block };
  });
}

/**
 * The blocks of one role, from the README or the one docs page that holds them (in page order). At least one
 * must exist, so deleting a marker cannot silently skip a test; a role spread over two files is a mistake.
 */
export function blocksOf(role: string): Block[] {
  const files = [join(repoRoot, 'README.md'), ...markdownFiles()];
  const found = files
    .map((path) => ({
      file: relative(repoRoot, path),
      blocks: readmeBlocks(readFileSync(path, 'utf8'), relative(repoRoot, path)).filter((b) => b.role === role),
    }))
    .filter(({ blocks }) => blocks.length > 0);
  if (found.length === 0) throw new Error(`no block is marked <!-- readme-test: ${role} --> in README.md or docs/`);
  if (found.length > 1)
    throw new Error(
      `<!-- readme-test: ${role} --> blocks are in ${found.map((f) => f.file).join(' and ')}: keep a role in one file`,
    );
  return found[0]!.blocks;
}
