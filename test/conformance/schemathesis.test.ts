/**
 * Property-based fuzzing of the management API from its OpenAPI document: PyPI `schemathesis` (installed by
 * test/setup.sh) against a live `dsync serve`, on the memory store and on Redis. It generates requests from the
 * document (valid ones, and invalid ones that must be refused), runs a stateful phase along the links it infers
 * (create a directory, then read, update, replay, delete it) and checks every answer: no 5xx, no status the
 * document does not list, no body or header outside the documented schema. Bounded: a fixed number of examples
 * per operation, one worker (schemathesis' threads trip a CPython AST bug in hypothesis' lambda descriptions).
 * A seeded directory (users, groups, one event of every type, failed deliveries to a closed port: delivery logs,
 * dead letters) is pinned into the read operations' ids, so their answers carry data the schemas must describe.
 * The seed is fixed (DSYNC_FUZZ_SEED, default FIXED_SEED) so CI is reproducible, as hypothesis advises for CI;
 * `DSYNC_FUZZ_SEED=random` explores new cases, and a failure names its seed to replay it.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EVENT_TYPES } from '../../src/core/model.js';
import { run, waitHealthy, type Running } from '../support/cli.js';
import { FAKE_CLIENT, FakeGoogle } from '../support/fake-google.js';
import { STORE_KINDS, until } from '../support/harness.js';
import { freshRedisStore, redisUrl } from '../support/services.js';
import { toolBinary } from '../support/tools.js';
import { freePort } from '../support/ports.js';

const KEY = 'schemathesis-key';
const DB = 12;
/**
 * The three the issue asks for, then: declared content types and headers, invalid input refused (never a 2xx), 405 for
 * undeclared methods.
 */
const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'response_schema_conformance',
  'content_type_conformance',
  'response_headers_conformance',
  'negative_data_rejection',
  'unsupported_method',
];
/** Per operation and phase; about 1,500 cases and 30 s per store on a CI core. */
const MAX_EXAMPLES = 25;

/**
 * Every phase, explicitly: the document's examples, the coverage of its constraints, fuzzing, and the stateful phase
 * along links.
 */
const PHASES = ['examples', 'coverage', 'fuzzing', 'stateful'] as const;

interface Report {
  seed: string;
  exit_code: number;
  running_time: number;
  phases: Record<(typeof PHASES)[number], { status: string; skip_reason: string | null }>;
  test_cases: { generated: number; with_failures: number; errored: number };
  failures: unknown[];
  errors: unknown[];
}

/** A directory with data behind every read route; returns the ids the read operations are pinned to. */
async function seed(baseUrl: string): Promise<{ directory: string; user: string; group: string }> {
  const api = async (method: string, path: string, body: unknown, auth: string) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: auth, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`seeding: ${method} ${path} answered ${res.status}: ${await res.text()}`);
    return res.status === 204 ? undefined : ((await res.json()) as any);
  };
  const closed = await freePort(); // nothing listens: every delivery fails, is logged, and ends as a dead letter
  const { data: d } = await api(
    'POST',
    '/api/v1/directory-sync',
    {
      name: 'Fuzz',
      tenant: 'fuzz',
      product: 'app',
      type: 'okta-scim-v2',
      webhook_url: `http://127.0.0.1:${closed}/hook`,
      log_webhook_events: true,
    },
    `Api-Key ${KEY}`,
  );
  const scim = (method: string, path: string, body?: unknown) =>
    api(method, `/api/scim/v2.0/${d.id}${path}`, body, `Bearer ${d.scim.secret}`);
  const userBody = (userName: string, active = true) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName,
    name: { givenName: 'Ada', familyName: 'Lovelace' },
    emails: [{ value: userName, primary: true }],
    active,
  });
  const groupBody = (displayName: string, members: string[]) => ({
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
    displayName,
    members: members.map((value) => ({ value })),
  });
  // One event of every type in the log, so the Events API's answers are checked against each event's schema.
  const user = await scim('POST', '/Users', userBody('ada@example.com'));
  const leaver = await scim('POST', '/Users', userBody('bob@example.com'));
  const group = await scim('POST', '/Groups', groupBody('Engineers', [user.id, leaver.id]));
  await scim('PUT', `/Users/${leaver.id}`, userBody('bob@example.com', false));
  await scim('PUT', `/Groups/${group.id}`, groupBody('Engineering', [user.id]));
  await scim('DELETE', `/Users/${leaver.id}`);
  const gone = await scim('POST', '/Groups', groupBody('Temporary', []));
  await scim('DELETE', `/Groups/${gone.id}`);
  const { data: log } = await api('GET', `/api/v1/directory-sync/${d.id}/events`, undefined, `Api-Key ${KEY}`);
  expect([...new Set(log.events.map((e: { event: string }) => e.event))]).to.have.members([...EVENT_TYPES]);
  await until(
    async () =>
      (await api('GET', `/api/v1/directory-sync/${d.id}/dead-letters`, undefined, `Api-Key ${KEY}`)).data.length > 0,
    'a dead letter',
    20_000,
  );
  return { directory: d.id, user: user.id, group: group.id };
}

/** schemathesis.toml pinning the seeded ids into the read operations (every other parameter is still generated). */
function pinnedConfig(ids: { directory: string; user: string; group: string }): string {
  const pin = (name: string, parameters: Record<string, string>) =>
    `[[operations]]\ninclude-name = "GET /api/v1${name}"\nparameters = { ${Object.entries(parameters)
      .map(([k, v]) => `"${k}" = "${v}"`)
      .join(', ')} }\n` +
    // A pinned value also replaces the invalid one a negative case put there, making it valid: not a finding.
    'checks = { negative_data_rejection = { enabled = false } }\n';
  const directoryId = { 'query.directoryId': ids.directory };
  return [
    // A request line past Node's 16 KiB (an over-long query value) is refused with 431, documented on every operation.
    '[checks.negative_data_rejection]\nexpected-statuses = ["400", "401", "403", "404", "405", "406", "409", "415", "422", "428", "429", "431", "5xx"]\n',
    pin('/directory-sync/users', directoryId),
    pin('/directory-sync/groups', directoryId),
    pin('/directory-sync/users/{id}', { ...directoryId, 'path.id': ids.user }),
    pin('/directory-sync/groups/{id}', { ...directoryId, 'path.id': ids.group }),
    pin('/directory-sync/groups/{id}/members', { ...directoryId, 'path.id': ids.group }),
    pin('/directory-sync/{id}/events', { 'path.id': ids.directory }),
    pin('/directory-sync/{id}/dead-letters', { 'path.id': ids.directory }),
    pin('/dsync/events', directoryId),
  ].join('\n');
}

/** The seed of the run CI repeats; any 128-bit integer will do (this one once found `limit=` read as absent). */
const FIXED_SEED = '146707903910563053688713066605503862649';
const SEED = process.env.DSYNC_FUZZ_SEED ?? FIXED_SEED;

function fuzz(baseUrl: string, reportFile: string, configFile: string): Promise<{ report: Report; output: string }> {
  const args = [
    '--config-file',
    configFile,
    'run',
    `${baseUrl}/api/v1/openapi.json`,
    '-H',
    `Authorization: Api-Key ${KEY}`,
    '--checks',
    CHECKS.join(','),
    '--max-examples',
    String(MAX_EXAMPLES),
    // Valid requests (positive) and invalid ones that must be refused (negative), in every phase.
    '--mode',
    'all',
    '--phases',
    PHASES.join(','),
    '--workers',
    '1',
    '--generation-database',
    'none',
    ...(SEED === 'random' ? [] : ['--seed', SEED]),
    '--no-color',
    '--report',
    'json',
    '--report-json-path',
    reportFile,
    // A sync run over every Google directory the fuzzer made can outlast its 10 s read timeout; the sync route
    // has its own tests (google-cron, google-sync), and its answer schema is checked by openapi.test.ts.
    '--exclude-path',
    '/api/v1/dsync/cron/sync-google',
  ];
  return new Promise((resolve, reject) => {
    execFile(
      toolBinary('SCHEMATHESIS_BIN'),
      args,
      { timeout: 420_000, maxBuffer: 64 * 1024 * 1024 },
      (_err, stdout, stderr) => {
        const output = `${stdout}\n${stderr}`;
        try {
          const text = readFileSync(reportFile, 'utf8');
          // The seed is a 128-bit integer: read it as text, JSON.parse would round it.
          resolve({
            report: { ...(JSON.parse(text) as Report), seed: /"seed":\s*(\d+)/.exec(text)?.[1] ?? '?' },
            output,
          });
        } catch {
          reject(new Error(`schemathesis wrote no report:\n${output.slice(-4000)}`));
        }
      },
    );
  });
}

for (const kind of STORE_KINDS) {
  describe(`conformance: schemathesis fuzz of the OpenAPI document (${kind} store)`, function () {
    this.timeout(480_000);
    let proc: Running;
    let port: number;
    const dir = mkdtempSync(join(tmpdir(), 'dsync-schemathesis-'));

    // Google as the Google routes meet it in production (an OAuth client configured), faked: a sync or a code
    // exchange answers at once instead of retrying an unreachable Google for a minute.
    let google: FakeGoogle;

    before(async () => {
      port = await freePort();
      google = await new FakeGoogle().start();
      const env: Record<string, string> = {
        PORT: String(port),
        METRICS_PORT: '0',
        DSYNC_API_KEYS: KEY,
        LOG_LEVEL: 'warn',
        DSYNC_WEBHOOK_ALLOW_PRIVATE: 'true',
        DSYNC_WEBHOOK_RETRY_SCHEDULE: '10ms,10ms',
        DSYNC_GOOGLE_CLIENT_ID: FAKE_CLIENT.id,
        DSYNC_GOOGLE_CLIENT_SECRET: FAKE_CLIENT.secret,
        DSYNC_GOOGLE_API_URL: google.apiUrl,
        DSYNC_GOOGLE_TOKEN_URL: google.tokenUrl,
        DSYNC_GOOGLE_AUTH_URL: google.authUrl,
      };
      if (kind === 'redis') {
        await (await freshRedisStore(DB)).close();
        env.REDIS_URL = `${redisUrl()}/${DB}`;
      }
      proc = run('node', ['--import', 'tsx', 'src/cli.ts', 'serve'], env);
      await waitHealthy(port, proc);
    });
    after(async () => {
      proc?.child.kill('SIGTERM');
      await proc?.exited;
      await google?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('finds no 5xx, no undocumented status and no answer outside its schema', async () => {
      const baseUrl = `http://127.0.0.1:${port}`;
      writeFileSync(join(dir, 'schemathesis.toml'), pinnedConfig(await seed(baseUrl)));
      const { report, output } = await fuzz(baseUrl, join(dir, 'report.json'), join(dir, 'schemathesis.toml'));
      const { generated, with_failures, errored } = report.test_cases;
      console.log(
        `      schemathesis: ${generated} cases generated, ${with_failures} with failures, ${errored} errored in ${report.running_time.toFixed(0)} s (seed ${report.seed})`,
      );
      const detail = `schemathesis found problems (rerun with DSYNC_FUZZ_SEED=${report.seed}):\n${output.slice(-6000)}\n${proc.output().slice(-2000)}`;
      expect(report.failures, detail).to.deep.equal([]);
      expect(report.errors, detail).to.deep.equal([]);
      expect(report.exit_code, detail).to.equal(0);
      // Each phase ran (none skipped for lack of links or examples) and passed.
      expect(Object.fromEntries(PHASES.map((p) => [p, report.phases[p].status])), detail).to.deep.equal(
        Object.fromEntries(PHASES.map((p) => [p, 'success'])),
      );
      expect(generated).to.be.at.least(500);
    });
  });
}
