/**
 * The repository stands on its own: no file of it (README, docs, code, comments, chart, deploy files, tests,
 * scripts) cites a document it does not hold or links out of the tree other than to a public URL.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { repoRoot } from '../support/cli.js';
import { outsideReferences, repositoryTextFiles } from './outside-references.js';

/** This scanner and its test quote what they look for. */
const SELF = ['test/readme/outside-references.ts', 'test/readme/outside-references.test.ts'];

const found = (text: string, file = join(repoRoot, 'docs/guides/page.md')) =>
  outsideReferences(text, file, repoRoot).map((r) => `${r.line}: ${r.what}`);

describe('The repository stands on its own', () => {
  it('finds references to documents kept elsewhere, tickets by number, and links out of the tree', () => {
    const page = [
      'Decisions where DESIGN.md is silent,',
      'the presets (SPEC §8.2), as SPEC.md shows it;',
      'measured for issue 24 (finding 4), see Issues 13 and 21,',
      'the [spec](../../../shared/SPEC.md) and [notes](/work/notes.md),',
      'a [local page](http://localhost:8000/guide/), [a file](file:///etc/hosts),',
    ].join('\n');
    expect(found(page)).to.deep.equal([
      '1: a design document outside the repository',
      '2: a specification outside the repository',
      '3: a ticket by number',
      '3: a finding of a ticket by number',
      '4: a specification outside the repository',
      "4: a path of a developer's machine",
      '4: a link out of the repository (../shared/SPEC.md)',
      '4: a link to an absolute path',
      '5: a link to a private host (localhost)',
      '5: a link of scheme file:',
    ]);
    expect(found('// the flow of SPEC §4.2', join(repoRoot, 'src/a.ts'))).to.deep.equal([
      '1: a specification outside the repository',
    ]);
  });

  it('passes standards by section, public URLs, pages of ours, and the words in other senses', () => {
    const page = [
      "RFC 7644 §3.12 errors; OpenID Connect Core §3.1.3.7; Okta's SCIM spec test;",
      'the resync issues 0 writes? no: the operator issues no write; file an issue on the tracker;',
      '[ioredis#1683](https://github.com/redis/ioredis/issues/1683), [Helm](../operating/helm.md#install),',
      '[anchor](#top), [mail](mailto:security@example.com), `[code](../../../outside.md)`',
      '```',
      '[in a fence](../../../../outside.md)',
      '```',
    ].join('\n');
    // "issues 0 writes" is a verb, but reads as a ticket: say "makes 0 writes".
    expect(found(page)).to.deep.equal(['2: a ticket by number']);
  });

  it('no file of the repository has any', () => {
    const files = repositoryTextFiles(repoRoot).filter((f) => !SELF.includes(relative(repoRoot, f)));
    expect(files.map((f) => relative(repoRoot, f))).to.include.members([
      'README.md',
      'src/cli.ts',
      'charts/dsync/values.yaml',
      'Dockerfile',
      'docs/index.md',
    ]);
    const problems = files.flatMap((file) =>
      outsideReferences(readFileSync(file, 'utf8'), file, repoRoot).map(
        (r) => `${relative(repoRoot, file)}:${r.line}: ${r.what}: ${r.text.trim().slice(0, 100)}`,
      ),
    );
    expect(problems, problems.join('\n')).to.deep.equal([]);
  });
});
