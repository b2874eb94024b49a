/**
 * No Markdown file of the repository carries what a pasted patch or a bad merge leaves behind (hunk headers,
 * conflict markers, runs of `-`/`+` lines): the site renders it as a garbled page and the strict build passes it.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { repoRoot } from '../support/cli.js';
import { markdownLeftovers, repositoryMarkdown } from './markdown-leftovers.js';

const page = (...lines: string[]) => lines.join('\n');
const lines = (markdown: string) => markdownLeftovers(markdown).map((l) => `${l.line}: ${l.what}`);

describe('Docs: no leftovers of a diff or a merge in Markdown', () => {
  it('finds a pasted unified diff: hunk headers, file headers and its removed and added lines', () => {
    const pasted = page(
      '# Security',
      '',
      'The real text.',
      '',
      '--- a/README.md',
      '+++ b/README.md',
      '@@ -1571,32 +1694,42 @@ dependency-cruiser (`.dependency-cruiser.cjs`): `src/core` imports',
      '   through the shared writers, clashes deferred',
      '-  `oauth-state.ts` (the signed state of the browser flows), `group-keys.ts`.',
      '-- `src/providers/google`: the Google Workspace pull sync',
      '+  `group-keys.ts`, `async-runs.ts`.',
      ' - `src/http`: express',
    );
    expect(lines(pasted)).to.deep.equal([
      '5: a diff file header',
      '6: a diff file header',
      '7: a diff hunk header',
      '9: a removed or added line of a diff',
      '10: a removed or added line of a diff',
      '11: a removed or added line of a diff',
    ]);
  });

  it('finds merge-conflict markers, in a code block too', () => {
    const conflicted = page(
      '# Page',
      '<<<<<<< HEAD',
      'ours',
      '=======',
      'theirs',
      '>>>>>>> feature',
      '```sh',
      '<<<<<<< HEAD',
      '```',
    );
    expect(lines(conflicted)).to.deep.equal([
      '2: a merge-conflict marker',
      '4: a merge-conflict marker',
      '6: a merge-conflict marker',
      '8: a merge-conflict marker',
    ]);
  });

  it('passes lists, rules, tables, a setext heading, a lone wrapped `+` and a diff shown in a code block', () => {
    const fine = page(
      '---',
      'title: front matter',
      '---',
      'A heading',
      '=======',
      '',
      '- a list item',
      '  continued',
      '- another',
      '',
      '---',
      '',
      '| a | b |',
      '|---|---|',
      '',
      'a port range of the cluster, its ports',
      '+10000, and more text',
      '',
      '```diff',
      '@@ -1,2 +1,2 @@',
      '-old',
      '+new',
      '```',
    );
    expect(markdownLeftovers(fine)).to.deep.equal([]);
  });

  it('no Markdown file of the repository has any', () => {
    const files = repositoryMarkdown(repoRoot);
    expect(files.map((f) => relative(repoRoot, f))).to.include.members([
      'README.md',
      'docs/index.md',
      'docs/operating/security.md',
    ]);
    const problems = files.flatMap((file) =>
      markdownLeftovers(readFileSync(file, 'utf8')).map(
        (l) => `${relative(repoRoot, file)}:${l.line}: ${l.what}: ${l.text.slice(0, 80)}`,
      ),
    );
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });
});
