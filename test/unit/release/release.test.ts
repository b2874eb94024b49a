/**
 * Releases: the changelog is in the Keep a Changelog format (exactly as keep-a-changelog writes it, its links
 * built from package.json's repository), the versions agree (package.json, the chart's appVersion, the last
 * release of the changelog, the docs site's repository link), and the version bump of the release procedure
 * (docs/contributing/releasing.md) changes what it should and refuses what it should.
 */
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import {
  canonicalChangelog,
  CHANGELOG_FILE,
  releasedVersions,
  repositoryUrl,
  ROOT,
} from '../../../scripts/release/changelog.js';
import { bump, type BumpFiles } from '../../../scripts/release/version-bump.js';

const read = (path: string) => readFileSync(`${ROOT}${path}`, 'utf8');
const URL_ = repositoryUrl();
const files = (): BumpFiles => ({
  packageJson: read('package.json'),
  packageLock: read('package-lock.json'),
  chartYaml: read('charts/dsync/Chart.yaml'),
  changelog: read('CHANGELOG.md'),
});

describe('Releases: the changelog and the versions', () => {
  it('CHANGELOG.md is in the Keep a Changelog format, as keep-a-changelog writes it', () => {
    const text = readFileSync(CHANGELOG_FILE, 'utf8');
    expect(text)
      .to.match(/^# Changelog\n/)
      .and.to.match(/\n## \[?Unreleased\]?\n/);
    expect(
      canonicalChangelog(text, URL_) === text,
      'CHANGELOG.md differs from what keep-a-changelog writes: check its headings (## [x.y.z] - YYYY-MM-DD), sections (### Added, Changed, Deprecated, Removed, Fixed, Security) and links',
    ).to.equal(true);
  });

  it("agrees on one version: package.json, the chart's appVersion, the changelog's last release; one repository URL", () => {
    const version = (JSON.parse(read('package.json')) as { version: string }).version;
    const chart = parse(read('charts/dsync/Chart.yaml')) as { appVersion: string; version: string };
    expect(chart.appVersion).to.equal(version);
    const [last] = releasedVersions(read('CHANGELOG.md'), URL_);
    if (last !== undefined) expect(last, 'the last release of CHANGELOG.md').to.equal(version);
    expect(URL_).to.match(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+$/);
    expect(/^repo_url: (\S+)$/m.exec(read('mkdocs.yml'))?.[1], "mkdocs.yml's repo_url").to.equal(URL_);
  });

  it('the bump releases the Unreleased section and sets every version; a second release compares with the first', () => {
    const first = bump(files(), '0.1.0', { date: '2026-12-07', url: 'https://github.com/o/r' });
    expect(JSON.parse(first.packageJson).version).to.equal('0.1.0');
    expect(JSON.parse(first.packageLock).packages[''].version).to.equal('0.1.0');
    expect(parse(first.chartYaml)).to.include({ version: '0.2.0', appVersion: '0.1.0' });
    expect(first.chartYaml, "Chart.yaml's comments are kept").to.contain(
      '# CRD validation rules (CEL) are GA from 1.29.',
    );
    expect(first.changelog).to.contain('## [Unreleased]\n\n## [0.1.0] - 2026-12-07\n');
    expect(first.changelog)
      .to.contain('[Unreleased]: https://github.com/o/r/compare/v0.1.0...HEAD')
      .and.to.contain('[0.1.0]: https://github.com/o/r/releases/tag/v0.1.0');
    expect(canonicalChangelog(first.changelog, 'https://github.com/o/r')).to.equal(first.changelog);

    const fixed = {
      ...first,
      changelog: first.changelog.replace('## [Unreleased]\n', '## [Unreleased]\n\n### Fixed\n\n- A fix.\n'),
    };
    const second = bump(fixed, '0.2.0', { date: '2027-01-10', url: 'https://github.com/o/r' });
    expect(parse(second.chartYaml)).to.include({ version: '0.3.0', appVersion: '0.2.0' });
    expect(second.changelog)
      .to.contain('## [0.2.0] - 2027-01-10\n\n### Fixed\n\n- A fix.\n')
      .and.to.contain('[0.2.0]: https://github.com/o/r/compare/v0.1.0...v0.2.0');
    const patch = bump(
      {
        ...second,
        changelog: second.changelog.replace('## [Unreleased]\n', '## [Unreleased]\n\n### Security\n\n- A fix.\n'),
      },
      '0.2.1',
      { date: '2027-01-11', url: 'https://github.com/o/r', chart: '0.3.5' },
    );
    expect(parse(patch.chartYaml)).to.include({ version: '0.3.5', appVersion: '0.2.1' });
  });

  it('refuses a version that is not one, below the current one, or with nothing to release', () => {
    const now = files();
    const options = { date: '2026-12-07', url: 'https://github.com/o/r' };
    expect(() => bump(now, 'v1', options)).to.throw('v1 is not a semantic version');
    expect(() => bump(now, '0.0.9', options)).to.throw('0.0.9 is below the current version');
    expect(() => bump(now, '0.2.0', { ...options, chart: '0.1.0' })).to.throw(
      "chart version 0.1.0 is below the chart's",
    );
    const released = bump(now, '0.1.0', options);
    expect(() => bump(released, '0.1.1', options)).to.throw('the Unreleased section lists no change to release');
    const again = {
      ...released,
      changelog: released.changelog.replace('## [Unreleased]\n', '## [Unreleased]\n\n### Fixed\n\n- A fix.\n'),
    };
    expect(() => bump(again, '0.1.0', options)).to.throw('0.1.0 is not above the last release, 0.1.0');
  });
});
