/**
 * The README is the front door: short, with the fresh-machine commands as they are, the first run, and links
 * that lead into the docs (a new reader reaches a running service, the Helm install page and the alert runbooks
 * from it in at most two clicks). Every relative link of it must lead somewhere: the strict docs build checks the
 * docs' own links, not the README's.
 */
import { expect } from 'chai';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '../support/cli.js';
import { readmeText } from './readme-blocks.js';

/** The anchor MkDocs (and GitHub) give a heading: lower case, punctuation dropped, spaces as dashes. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\w\s-]/g, '')
    .replace(/\s+/g, '-');

function headings(markdown: string): string[] {
  let fence = false;
  return markdown.split('\n').flatMap((line) => {
    if (line.trimStart().startsWith('```')) fence = !fence;
    const h = !fence && /^#{1,6} (.+)$/.exec(line);
    return h ? [slug(h[1]!)] : [];
  });
}

describe('README: short, the fresh-machine commands, links into the docs', () => {
  const readme = readmeText();
  const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter((l) => !/^[a-z]+:/.test(l));

  it('is under 200 lines', () => {
    expect(readme.split('\n').length).to.be.below(200);
  });

  it('"Set up on a fresh machine" gives its two commands as they are', () => {
    const start = readme.indexOf('## Set up on a fresh machine\n');
    expect(start).to.be.above(0);
    const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
    const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
    expect(blocks).to.deep.equal(['npm ci && npm start', 'npm test']);
  });

  it('every relative link leads to a file of the repository, and an anchor to a heading of it', () => {
    expect(links.length).to.be.above(20);
    for (const link of links) {
      const [path, anchor] = link.split('#') as [string, string | undefined];
      const target = join(repoRoot, path);
      expect(existsSync(target), `README links ${link}`).to.equal(true);
      if (anchor) expect(headings(readFileSync(target, 'utf8')), `README links ${link}`).to.include(anchor);
    }
  });

  it('links straight to the Helm install page and the alert runbooks; the first run is on the README itself', () => {
    expect(links).to.include.members([
      'docs/operating/helm.md',
      'docs/operating/alerts/index.md',
      'docs/getting-started/local.md',
    ]);
    // The alerts page links every runbook: the second click.
    const alerts = readFileSync(join(repoRoot, 'docs/operating/alerts/index.md'), 'utf8');
    const runbooks = [...alerts.matchAll(/\]\((Dsync\w+\.md)\)/g)].map((m) => m[1]!);
    expect(runbooks.length).to.be.above(10);
    for (const runbook of runbooks)
      expect(existsSync(join(repoRoot, dirname('docs/operating/alerts/index.md'), runbook)), runbook).to.equal(true);
    expect(readme).to.contain('<!-- readme-test: service -->');
  });
});
