/**
 * The runnable examples of the docs pages (docs/contributing/docs.md describes the convention):
 *
 *   <!-- docs-test: file receiver.py -->                     the block is written to receiver.py
 *   <!-- docs-test: setup -->                                a reader's install step: shell blocks run in page
 *                                                            order, before anything is started
 *   <!-- docs-test: background ready="listening" expect="user.created" -->
 *                                                            a shell block started beside the others (a second
 *                                                            terminal), waited for until it prints `ready`
 *   <!-- docs-test: run expect="…" -->                       shell blocks run in page order as one script
 *
 * `expect` is text the block's output must contain (a background block's, within a while).
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { repoRoot } from '../support/cli.js';
import { DOCS_DIR, markdownFiles, markedBlocks } from './readme-blocks.js';

export type DocsBlock =
  | { mode: 'file'; name: string; lang: string; code: string; line: number }
  | { mode: 'background'; ready: string; expect?: string; lang: string; code: string; line: number }
  | { mode: 'setup'; lang: string; code: string; line: number }
  | { mode: 'run'; expect?: string; lang: string; code: string; line: number };

export interface DocsPage {
  file: string;
  blocks: DocsBlock[];
}

const SHELL = ['sh', 'bash', 'shell'];

function parse(file: string, attributes: string, block: { lang: string; code: string; line: number }): DocsBlock {
  const where = `${file}:${block.line}`;
  const [mode, ...rest] = attributes.match(/\S+="[^"]*"|\S+/g) ?? [];
  const named = Object.fromEntries(
    rest.filter((r) => r.includes('=')).map((r) => [r.slice(0, r.indexOf('=')), r.slice(r.indexOf('=') + 2, -1)]),
  );
  const words = rest.filter((r) => !r.includes('='));
  const unknown = Object.keys(named).filter((k) => !['ready', 'expect'].includes(k));
  if (unknown.length > 0) throw new Error(`${where}: unknown docs-test attribute ${unknown.join(', ')}`);
  if (mode !== 'file' && !SHELL.includes(block.lang))
    throw new Error(`${where}: a docs-test ${mode} block is a shell block (\`\`\`sh), not \`\`\`${block.lang}`);
  switch (mode) {
    case 'file':
      if (words.length !== 1) throw new Error(`${where}: docs-test file takes one file name`);
      return { mode, name: words[0]!, ...block };
    case 'background':
      if (named['ready'] === undefined)
        throw new Error(`${where}: a docs-test background block needs ready="<text it prints when ready>"`);
      return {
        mode,
        ready: named['ready'],
        ...(named['expect'] !== undefined && { expect: named['expect'] }),
        ...block,
      };
    case 'setup':
      if (Object.keys(named).length > 0) throw new Error(`${where}: a docs-test setup block takes no attributes`);
      return { mode, ...block };
    case 'run':
      return { mode, ...(named['expect'] !== undefined && { expect: named['expect'] }), ...block };
    default:
      throw new Error(`${where}: unknown docs-test mode "${mode}" (file, setup, background, run)`);
  }
}

/** The marked blocks of one page's text, in page order; a malformed marker throws, naming its line. */
export function docsTestBlocks(text: string, file: string): DocsBlock[] {
  return markedBlocks(text, file, 'docs-test').map(({ attributes, ...block }) => parse(file, attributes, block));
}

/** Every docs page with at least one marked block, its blocks in page order. */
export function docsPages(): DocsPage[] {
  return markdownFiles(DOCS_DIR)
    .map((path) => {
      const file = relative(repoRoot, path);
      return { file, blocks: docsTestBlocks(readFileSync(path, 'utf8'), file) };
    })
    .filter((page) => page.blocks.length > 0)
    .sort((a, b) => a.file.localeCompare(b.file));
}
