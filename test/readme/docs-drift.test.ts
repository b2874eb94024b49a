/**
 * What the docs and the deploy/ files say, held to the code and to each other: every directory type listed where
 * types are listed, pointers that lead to a page that exists, install steps in an order that works, and the
 * warnings a reader must not miss shown as warnings (admonitions) on the site.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { DIRECTORY_TYPES } from '../../src/core/model.js';
import { repoRoot } from '../support/cli.js';
import { markdownFiles } from './readme-blocks.js';

const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');

/** The admonitions of a page (`!!! kind "title"` and its indented body), as [kind, title + body] pairs. */
function admonitions(page: string): Array<{ kind: string; text: string }> {
  return [...read(page).matchAll(/^!!! (\w+)(?: "([^"]*)")?\n((?: {4}.*\n|\n)+)/gm)].map((m) => ({
    kind: m[1]!,
    text: `${m[2] ?? ''}\n${m[3]!}`,
  }));
}

describe('Docs: the pages and deploy/ files agree with the code and each other', () => {
  it('the sample DirectoryConnection and the API guide list every directory type', () => {
    const sample = read('deploy/samples/directoryconnection.yaml');
    const typeComment = /^ {2}type: .*(?:\n {20,}#.*)*/m.exec(sample)![0];
    const api = read('docs/guides/api.md');
    const apiTypes = /^- `type`: ([\s\S]*?)\. /m.exec(api)![1]!;
    for (const type of DIRECTORY_TYPES) {
      expect(typeComment, `deploy/samples/directoryconnection.yaml lists ${type}`).to.match(
        new RegExp(`\\b${type}\\b`),
      );
      expect(apiTypes, `docs/guides/api.md lists ${type}`).to.contain(`\`${type}\``);
    }
  });

  it('the files of deploy/ point at docs pages that exist, never at sections of the README (which move)', () => {
    const files = readdirSync(join(repoRoot, 'deploy'), { recursive: true, encoding: 'utf8' }).filter((f) =>
      /\.(ya?ml|sh)$/.test(f),
    );
    expect(files).to.include.members(['samples/webhook-secret.yaml', 'kind/up.sh']);
    for (const file of files) {
      const text = read(`deploy/${file}`);
      expect(text, `deploy/${file}`).to.not.match(/README(\.md)?/);
      for (const [path] of text.matchAll(/docs\/[\w/.-]+\.md/g))
        expect(existsSync(join(repoRoot, path)), `deploy/${file} names ${path}`).to.equal(true);
    }
  });

  it('no page installs the chart with --create-namespace: the Secrets the release reads go in the namespace first', () => {
    const offenders = markdownFiles()
      .concat(join(repoRoot, 'README.md'))
      .filter((path) => /helm (install|upgrade)[^\n]*(\\\n[^\n]*)*--create-namespace/.test(readFileSync(path, 'utf8')));
    expect(offenders).to.deep.equal([]);
    const helm = read('docs/operating/helm.md');
    const secrets = helm.indexOf('create secret generic dsync-api-keys');
    expect(secrets, 'docs/operating/helm.md creates the API keys Secret').to.be.above(0);
    expect(secrets, 'before helm install').to.be.below(helm.indexOf('helm install dsync'));
  });

  it('shows the warnings as admonitions: deleting the CRD, the setup link as a credential, the placeholder registry', () => {
    const helm = admonitions('docs/operating/helm.md');
    expect(
      helm.some((a) => a.kind === 'danger' && /deletes every DirectoryConnection/.test(a.text)),
      'helm.md: a danger admonition on deleting the CRD',
    ).to.equal(true);
    expect(
      helm.some((a) => /registry\.example\.com/.test(a.text) && /yours to set/.test(a.text)),
      'helm.md: the placeholder registry named as yours to set',
    ).to.equal(true);
    const setup = admonitions('docs/guides/setting-up-a-customer.md');
    expect(
      setup.some((a) => a.kind === 'warning' && /credential/.test(a.text)),
      'setting-up-a-customer.md: a warning that the link is a credential',
    ).to.equal(true);
  });
});
