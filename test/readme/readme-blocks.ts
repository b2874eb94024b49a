/**
 * The README's tested examples: each fenced block right after a `<!-- readme-test: <role> -->` comment, with
 * the indentation of a list item removed (what a reader copies from the rendered page).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../support/cli.js';

export interface Block {
  role: string;
  lang: string;
  code: string;
  line: number;
}

export function readmeText(): string {
  return readFileSync(join(repoRoot, 'README.md'), 'utf8');
}

export function readmeBlocks(text = readmeText()): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  lines.forEach((line, i) => {
    const marker = /^(\s*)<!-- readme-test: ([\w-]+) -->\s*$/.exec(line);
    if (!marker) return;
    const fence = /^(\s*)```(\w*)\s*$/.exec(lines[i + 1] ?? '');
    if (!fence) throw new Error(`README.md:${i + 1}: a readme-test marker must be followed by a code fence`);
    const indent = fence[1]!.length;
    const end = lines.findIndex((l, j) => j > i + 1 && l.trim() === '```');
    if (end < 0) throw new Error(`README.md:${i + 2}: unterminated code fence`);
    const code = lines.slice(i + 2, end).map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)));
    blocks.push({ role: marker[2]!, lang: fence[2]!, code: `${code.join('\n')}\n`, line: i + 1 });
  });
  return blocks;
}

/** The blocks of one role; at least one must exist, so deleting a marker cannot silently skip a test. */
export function blocksOf(role: string): Block[] {
  const found = readmeBlocks().filter((b) => b.role === role);
  if (found.length === 0) throw new Error(`README.md has no block marked <!-- readme-test: ${role} -->`);
  return found;
}
