/**
 * The docs site (docs/, mkdocs.yml): the generated reference pages match the code they come from, every alert of
 * the chart has its runbook, and `mkdocs build --strict` passes (a broken link or anchor, or a page left out of
 * the nav, fails it).
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { appendFile, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Counter, Registry } from 'prom-client';
import { z } from 'zod';
import { chartValuesPage, CHART_DIR } from '../../scripts/docs/reference/chart-values.js';
import { configurationPage } from '../../scripts/docs/reference/configuration.js';
import { cliPage } from '../../scripts/docs/reference/cli.js';
import { crdPage, type Crd } from '../../scripts/docs/reference/crd.js';
import { errorsPage } from '../../scripts/docs/reference/errors.js';
import { httpApiPage, OPENAPI_FILE, type Document } from '../../scripts/docs/reference/http-api.js';
import { metricsPage, processRegistries } from '../../scripts/docs/reference/metrics.js';
import { operatorMetadataPage } from '../../scripts/docs/reference/operator-metadata.js';
import { REFERENCE_DIR, REFERENCE_PAGES } from '../../scripts/docs/reference/pages.js';
import { COMMAND_NAMES, COMMANDS } from '../../src/cli-commands.js';
import { ERROR_CODE_SECTIONS } from '../../src/core/error-codes.js';
import { directoryConnectionCrd } from '../../src/operator/crd-manifest.js';
import { OPERATOR_METADATA } from '../../src/operator/metadata-keys.js';
import { repoRoot } from '../support/cli.js';

const exec = promisify(execFile);
const SITE_SH = join(repoRoot, 'scripts/docs/site.sh');

describe('Docs: the generated reference pages are up to date with the code', function () {
  this.timeout(60_000);

  for (const { file, render } of REFERENCE_PAGES) {
    it(`docs/reference/${file}`, () => {
      const committed = readFileSync(join(REFERENCE_DIR, file), 'utf8');
      expect(
        render() === committed,
        `docs/reference/${file} is out of date with the code: run \`npm run docs:reference\` and commit it`,
      ).to.equal(true);
    });
  }
});

describe('Docs: what is added in the code shows on its reference page once regenerated', function () {
  this.timeout(60_000);
  const committed = (file: string) => readFileSync(join(REFERENCE_DIR, file), 'utf8');

  it('an environment variable (with or without a description yet)', async () => {
    const { envSchema } = await import('../../src/config.js');
    const page = configurationPage({
      ...envSchema.shape,
      DSYNC_DOCS_TEST_ADDED: z.coerce.number().int().min(1).default(3),
    });
    expect(page).to.not.equal(committed('configuration.md'));
    expect(page).to.match(
      /\| `DSYNC_DOCS_TEST_ADDED` \| integer \(≥ 1\) \| `3` \| Not described yet: add it to `src\/config-docs.ts`\. \|/,
    );
  });

  it('a metric, with its type and labels', () => {
    const registry = new Registry();
    new Counter({
      name: 'dsync_docs_test_added_total',
      help: 'Added by a test',
      labelNames: ['outcome'],
      registers: [registry],
    });
    const page = metricsPage([...processRegistries(), { process: '`dsync test`', registry }]);
    expect(page).to.not.equal(committed('metrics.md'));
    expect(page).to.contain('| `dsync_docs_test_added_total` | counter | `outcome` | Added by a test | `dsync test` |');
  });

  it('a route of the OpenAPI document (under a tag the document does not declare, too)', () => {
    const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Document;
    const get = {
      operationId: 'getDocsTest',
      summary: 'A route added by a test',
      tags: ['Docs test'],
      responses: { '204': { description: 'Nothing' } },
    };
    const page = httpApiPage({ ...document, paths: { ...document.paths, '/api/v1/docs-test': { get } } });
    expect(page).to.not.equal(committed('http-api.md'));
    expect(page).to.contain('## Docs test\n\n### A route added by a test {#op-getdocstest}\n\n`GET /api/v1/docs-test`');
  });

  it('a field of the CRD', () => {
    const crd = directoryConnectionCrd() as unknown as Crd;
    const spec = crd.spec.versions[0]!.schema.openAPIV3Schema.properties!['spec']!;
    spec.properties!['docsTestAdded'] = { type: 'integer', minimum: 1, description: 'Added by a test' };
    const page = crdPage(crd);
    expect(page).to.not.equal(committed('crd.md'));
    expect(page).to.contain('| `spec.docsTestAdded` | integer |  | Added by a test. ≥ 1. |');
  });

  it('a command of dsync, with the variables it reads', () => {
    const added = { summary: 'Added by a test', details: 'Does nothing.', store: 'None.', env: ['Operator'] as const };
    const page = cliPage({ ...COMMANDS, 'docs-test': added }, [...COMMAND_NAMES, 'docs-test']);
    expect(page).to.not.equal(committed('cli.md'));
    expect(page).to.contain('| [`dsync docs-test`](#dsync-docs-test) | Added by a test |');
    expect(page).to.contain(
      '## `dsync docs-test`\n\nDoes nothing.\n\n**Store:** None.\n\n**Reads:** [Operator](configuration.md#operator).',
    );
  });

  it('a label, annotation or finalizer of the operator, under who sets it', () => {
    const added = {
      kind: 'annotation',
      key: 'dsync.io/docs-test',
      on: 'the DirectoryConnection',
      setBy: 'you',
      meaning: 'Added by a test.',
    } as const;
    const page = operatorMetadataPage([...OPERATOR_METADATA, added]);
    expect(page).to.not.equal(committed('operator-metadata.md'));
    const yours = page.slice(page.indexOf('## What you set'), page.indexOf('## What the operator sets'));
    expect(yours).to.contain('| `dsync.io/docs-test` | annotation | the DirectoryConnection | Added by a test. |');
  });

  it('an error code, with its status, meaning and what to do', () => {
    const added = {
      title: 'Docs test',
      intro: 'Added by a test.',
      codes: { DSYNC_DOCS_TEST: { status: 418, meaning: 'Added by a test.', action: 'See DsyncStoreErrors.' } },
    };
    const page = errorsPage([...ERROR_CODE_SECTIONS, added]);
    expect(page).to.not.equal(committed('errors.md'));
    expect(page).to.contain('## Docs test\n\nAdded by a test.\n\n');
    expect(page).to.contain(
      '| `DSYNC_DOCS_TEST` | 418 | Added by a test. | See [DsyncStoreErrors](../operating/alerts/DsyncStoreErrors.md). |',
    );
  });

  it('a chart value, with its # -- comment (helm-docs)', async () => {
    const chart = await mkdtemp(join(tmpdir(), 'dsync-chart-'));
    try {
      await cp(CHART_DIR, chart, { recursive: true });
      await appendFile(join(chart, 'values.yaml'), '\n# -- Added by a test.\ndocsTestAdded: 7\n');
      const page = chartValuesPage(chart);
      expect(page).to.not.equal(committed('chart-values.md'));
      expect(page).to.contain('| `docsTestAdded` | int | `7` | Added by a test. |');
    } finally {
      await rm(chart, { recursive: true, force: true });
    }
  });
});

const rules = readFileSync(join(repoRoot, 'charts/dsync/templates/prometheusrule.yaml'), 'utf8');
const alerts = [...rules.matchAll(/^\s*- alert: (\w+)\s*$/gm)].map((m) => m[1]!);

describe('Docs: every alert has a runbook', () => {
  const index = readFileSync(join(repoRoot, 'docs/operating/alerts/index.md'), 'utf8');

  it('reads the alerts of the chart', () => {
    expect(alerts).to.include('DsyncStoreErrors');
  });

  for (const alert of alerts) {
    it(`${alert}: docs/operating/alerts/${alert}.md, linked from the alerts page`, () => {
      const runbook = join(repoRoot, `docs/operating/alerts/${alert}.md`);
      expect(
        existsSync(runbook),
        `write the runbook docs/operating/alerts/${alert}.md (and add it to mkdocs.yml's nav)`,
      ).to.equal(true);
      expect(readFileSync(runbook, 'utf8')).to.match(new RegExp(`^# ${alert}\\n`));
      expect(index).to.contain(`(${alert}.md)`);
    });
  }

  it('each alert of the chart links its runbook page (runbook_url under metrics.prometheusRule.runbookBaseUrl)', () => {
    // The rule of each alert, from its `- alert:` line to the next one: its runbook_url names the same alert.
    const blocks = rules.split(/^\s*- alert: /m).slice(1);
    expect(blocks).to.have.length(alerts.length);
    for (const block of blocks) {
      const alert = /^\w+/.exec(block)![0];
      expect(block, alert).to.contain(`runbook_url: {{ printf "%s/${alert}/" $runbooks }}`);
    }
    // The default base is where the site publishes the alerts' pages (mkdocs.yml's site_url, directory URLs).
    const siteUrl = /^site_url: (\S+)$/m.exec(readFileSync(join(repoRoot, 'mkdocs.yml'), 'utf8'))?.[1];
    const base = /^ {4}runbookBaseUrl: (\S+)$/m.exec(
      readFileSync(join(repoRoot, 'charts/dsync/values.yaml'), 'utf8'),
    )?.[1];
    expect(`${base}/`).to.equal(`${siteUrl}operating/alerts/`);
  });
});

describe('Docs: the architecture diagram', () => {
  const svg = readFileSync(join(repoRoot, 'docs/img/architecture.svg'), 'utf8');

  it('is well-formed SVG with a title and a description for screen readers', async () => {
    await exec('python3', [
      '-c',
      'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])',
      join(repoRoot, 'docs/img/architecture.svg'),
    ]);
    expect(svg).to.match(
      /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="[\d ]+"[^>]* role="img" aria-labelledby="title desc"/,
    );
    expect(svg).to.match(/<title id="title">[^<]+<\/title>\s*<desc id="desc">[^<]+<\/desc>/);
  });

  it('draws every command of the CLI', () => {
    const missing = COMMAND_NAMES.filter((name) => !svg.includes(`>dsync ${name}</text>`));
    expect(missing, 'draw these commands in docs/img/architecture.svg').to.deep.equal([]);
  });
});

describe('Docs: the site builds in strict mode', function () {
  this.timeout(300_000);

  /** Builds the site of `root` into a temporary directory; `inspect` sees that directory before it is removed. */
  async function build(
    root: string,
    inspect: (site: string) => void = () => {},
  ): Promise<{ ok: boolean; output: string }> {
    const site = await mkdtemp(join(tmpdir(), 'dsync-site-'));
    try {
      const { stdout, stderr } = await exec(
        'bash',
        [SITE_SH, 'build', '--config-file', join(root, 'mkdocs.yml'), '--site-dir', site],
        { cwd: root },
      );
      inspect(site);
      return { ok: true, output: stdout + stderr };
    } catch (err) {
      const { stdout = '', stderr = '' } = err as { stdout?: string; stderr?: string };
      return { ok: false, output: stdout + stderr };
    } finally {
      await rm(site, { recursive: true, force: true });
    }
  }

  it("mkdocs build --strict passes, with a page at each alert's runbook_url and the README's first run on Run it locally", async () => {
    const missing: string[] = [];
    let local = '';
    let design = '';
    let diagram = false;
    const { ok, output } = await build(repoRoot, (site) => {
      missing.push(...alerts.filter((alert) => !existsSync(join(site, `operating/alerts/${alert}/index.html`))));
      local = readFileSync(join(site, 'getting-started/local/index.html'), 'utf8');
      design = readFileSync(join(site, 'design/index.html'), 'utf8');
      diagram = existsSync(join(site, 'img/architecture.svg'));
    });
    expect(ok, output).to.equal(true);
    expect(output).to.not.match(/WARNING/);
    expect(missing, 'alerts without a page at <site>/operating/alerts/<alert>/').to.deep.equal([]);
    expect(local).to.contain('A first run, step by step').and.to.contain('Generated management API key for this run');
    expect(diagram, 'the architecture diagram is published').to.equal(true);
    expect(design).to.match(/<img [^>]*src="\.\.\/img\/architecture\.svg"/);
  });

  it('a broken link or anchor fails it', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'dsync-docs-'));
    try {
      await cp(join(repoRoot, 'docs'), join(copy, 'docs'), { recursive: true });
      await cp(join(repoRoot, 'mkdocs.yml'), join(copy, 'mkdocs.yml'));
      await cp(join(repoRoot, 'README.md'), join(copy, 'README.md')); // getting-started/local.md includes its first run
      const index = join(copy, 'docs/index.md');
      await writeFile(
        index,
        `${await readFile(index, 'utf8')}\n[gone](no-such-page.md), [no anchor](operating/upgrades.md#no-such-anchor)\n`,
      );
      const { ok, output } = await build(copy);
      expect(ok, output).to.equal(false);
      expect(output).to.contain("contains a link 'no-such-page.md', but the target is not found");
      expect(output).to.contain("does not contain an anchor '#no-such-anchor'");
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  });
});
