/**
 * CHANGELOG.md in the Keep a Changelog format, read and written by keep-a-changelog: the file is what the library
 * writes (so a test can tell a malformed entry), its compare links are built from the repository's URL in
 * package.json, and a release moves the Unreleased section under a version.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Changelog, parser, Release } from 'keep-a-changelog';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const CHANGELOG_FILE = `${ROOT}CHANGELOG.md`;

/** The repository's web URL, from package.json's `repository` (`git+https://…/x.git` → `https://…/x`). */
export function repositoryUrl(root = ROOT): string {
  const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { repository?: { url?: string } };
  const url = pkg.repository?.url;
  if (!url) throw new Error('package.json has no repository.url');
  return url.replace(/^git\+/, '').replace(/\.git$/, '');
}

export function readChangelog(text: string, url: string): Changelog {
  const changelog = parser(text);
  changelog.url = url;
  changelog.format = 'markdownlint';
  return changelog;
}

/** The changelog as keep-a-changelog writes it; the committed file must be exactly this. */
export function canonicalChangelog(text: string, url: string): string {
  return readChangelog(text, url).toString();
}

/** The versions released so far, newest first. */
export function releasedVersions(text: string, url: string): string[] {
  return readChangelog(text, url).releases.flatMap((r) => (r.version ? [r.version] : []));
}

/**
 * The changelog with its Unreleased changes released as `version` on `date`, and an empty Unreleased section
 * above it. Refuses an empty Unreleased section and a version not above the last one released.
 */
export function releaseChangelog(text: string, url: string, version: string, date: string): string {
  const changelog = readChangelog(text, url);
  const unreleased = changelog.releases.find((r) => !r.version);
  if (!unreleased || [...unreleased.changes.values()].every((changes) => changes.length === 0))
    throw new Error('CHANGELOG.md: the Unreleased section lists no change to release');
  const last = changelog.releases.find((r) => r.version);
  const next = new Release(version, date);
  if (last && next.compare(last) >= 0)
    throw new Error(`CHANGELOG.md: ${version} is not above the last release, ${last.version}`);
  unreleased.setVersion(version);
  unreleased.setDate(date);
  unreleased.description = '';
  changelog.addRelease(new Release());
  return changelog.toString();
}
