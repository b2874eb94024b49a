/**
 * `npm run release:bump -- <version> [--chart <chart version>] [--date <YYYY-MM-DD>]`: the version bump of a
 * release (docs/contributing/releasing.md). Sets package.json's and package-lock.json's version, the chart's
 * appVersion and version (by default raised by the same part as dsync's: major, minor or patch), and moves the
 * changelog's Unreleased section under the version. Run from a clean checkout; review and commit what it changed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseDocument } from 'yaml';
import { CHANGELOG_FILE, repositoryUrl, ROOT } from './changelog.js';
import { bump, type BumpFiles } from './version-bump.js';

const PATHS: Record<keyof BumpFiles, string> = {
  packageJson: `${ROOT}package.json`,
  packageLock: `${ROOT}package-lock.json`,
  chartYaml: `${ROOT}charts/dsync/Chart.yaml`,
  changelog: CHANGELOG_FILE,
};

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { chart: { type: 'string' }, date: { type: 'string' } },
});
const [version] = positionals;
if (!version) {
  process.stderr.write('usage: npm run release:bump -- <version> [--chart <chart version>] [--date <YYYY-MM-DD>]\n');
  process.exit(2);
}
try {
  const now = Object.fromEntries(
    Object.entries(PATHS).map(([k, path]) => [k, readFileSync(path, 'utf8')]),
  ) as unknown as BumpFiles;
  const next = bump(now, version, {
    ...(values.chart && { chart: values.chart }),
    date: values.date ?? new Date().toISOString().slice(0, 10),
    url: repositoryUrl(),
  });
  for (const key of Object.keys(PATHS) as Array<keyof BumpFiles>) writeFileSync(PATHS[key], next[key]);
  const chart = parseDocument(next.chartYaml).get('version');
  process.stdout.write(
    `dsync ${version}, chart ${chart}: package.json, package-lock.json, charts/dsync/Chart.yaml and CHANGELOG.md updated\n`,
  );
} catch (err) {
  process.stderr.write(`release:bump: ${(err as Error).message}\n`);
  process.exit(1);
}
