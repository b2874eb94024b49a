/** The version bump of a release as a pure function of the files it changes (scripts/release/bump.ts runs it). */
import { diff, gte, inc, type ReleaseType, valid } from 'semver';
import { parseDocument } from 'yaml';
import { releaseChangelog } from './changelog.js';

export interface BumpFiles {
  packageJson: string;
  packageLock: string;
  chartYaml: string;
  changelog: string;
}

/**
 * What the bump writes, from what the files hold now. `version` is at or above package.json's and above the last
 * release in the changelog; the chart's version is raised by the same part as dsync's unless `chart` names it.
 */
export function bump(
  files: BumpFiles,
  version: string,
  options: { chart?: string; date: string; url: string },
): BumpFiles {
  const pkg = JSON.parse(files.packageJson) as { version: string };
  if (!valid(version)) throw new Error(`${version} is not a semantic version (x.y.z)`);
  // The version package.json names may be released once (the first release of a version set in advance).
  if (!gte(version, pkg.version)) throw new Error(`${version} is below the current version, ${pkg.version}`);
  const chart = parseDocument(files.chartYaml);
  const chartNow = String(chart.get('version'));
  const part = (diff(pkg.version, version) ?? '').replace(/^pre/, '') as ReleaseType | '';
  const chartVersion = options.chart ?? (part ? inc(chartNow, part)! : chartNow);
  if (!valid(chartVersion) || !gte(chartVersion, chartNow))
    throw new Error(`chart version ${chartVersion} is below the chart's ${chartNow}`);
  chart.set('version', chartVersion);
  chart.set('appVersion', version);
  const lock = JSON.parse(files.packageLock) as { version: string; packages: Record<string, { version?: string }> };
  lock.version = version;
  lock.packages['']!.version = version;
  return {
    packageJson: files.packageJson.replace(/^(\s*"version":\s*)"[^"]+"/m, `$1"${version}"`),
    packageLock: `${JSON.stringify(lock, null, 2)}\n`,
    chartYaml: chart.toString(),
    changelog: releaseChangelog(files.changelog, options.url, version, options.date),
  };
}
