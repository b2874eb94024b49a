/**
 * Tested examples of the README and the docs pages: each fenced block right after a `<!-- <tag>: <attributes> -->`
 * comment (`readme-test` in the README, `docs-test` in docs/), with the indentation of a list item removed (what
 * a reader copies from the rendered page).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../support/cli.js';

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

export function readmeBlocks(text = readmeText()): Block[] {
  return markedBlocks(text, 'README.md', 'readme-test').map(({ attributes, ...block }) => {
    if (!/^[\w-]+$/.test(attributes)) throw new Error(`README.md:${block.line}: a readme-test role is one word, not "${attributes}"`);
    return { role: attributes, ...block };
  });
}

/** The blocks of one role; at least one must exist, so deleting a marker cannot silently skip a test. */
export function blocksOf(role: string): Block[] {
  const found = readmeBlocks().filter((b) => b.role === role);
  if (found.length === 0) throw new Error(`README.md has no block marked <!-- readme-test: ${role} -->`);
  return found;
}
