/**
 * The OpenAPI document as client authors use it: `redocly lint` with the recommended ruleset finds no error, and
 * clients generated from it by three generators compile (strict TypeScript; Python byte-compiled and imported)
 * and run one live scenario against a real `dsync serve`: create a directory, let an IdP push a user and a
 * group over SCIM, list the users, read the events narrowed by their type, and read a 404 as the error
 * envelope. The generators: openapi-generator (the JVM jar test/setup.sh caches from Maven Central) for Python
 * and typescript-fetch, in one JVM; openapi-typescript with openapi-fetch. The scenarios are in clients/.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { OPENAPI_FILE } from '../../scripts/generate/openapi.js';
import { repoRoot, run, waitHealthy, type Running } from '../support/cli.js';
import { toolBinary } from '../support/tools.js';
import { freePort } from '../support/ports.js';

const exec = promisify(execFile);
const KEY = 'clients-key';
const SCENARIOS = join(repoRoot, 'test/conformance/clients');
const bin = (name: string) => join(repoRoot, 'node_modules/.bin', name);

/** What every scenario prints, step by step (Python writes booleans capitalised). */
const EXPECTED = [
  'created okta-scim-v2',
  'users ann@acme.io',
  'events user.created,group.created,group.user_added',
  /^user ann@acme\.io active (true|True)$/,
  'added Ann to Engineering',
  'missing 404',
];

function expectScenario(stdout: string): void {
  const lines = stdout.trim().split('\n');
  expect(lines).to.have.length(EXPECTED.length, stdout);
  EXPECTED.forEach((want, i) =>
    typeof want === 'string' ? expect(lines[i]).to.equal(want) : expect(lines[i]).to.match(want),
  );
}

/** Runs a command, failing with its output; returns stdout and the seconds it took (wall clock, for the log). */
async function timed(
  file: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv } = {},
): Promise<{ stdout: string; seconds: number }> {
  const start = process.hrtime.bigint();
  try {
    const { stdout } = await exec(file, args, { ...options, maxBuffer: 64 * 1024 * 1024, timeout: 240_000 });
    return { stdout, seconds: Number(process.hrtime.bigint() - start) / 1e9 };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(
      `${file} ${args.join(' ')} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`.slice(0, 8000),
    );
  }
}

/** A strict tsconfig compiling `entry` (and what it imports) to CommonJS in `out/`. */
const tsconfig = (entry: string) =>
  JSON.stringify({
    compilerOptions: {
      target: 'ES2022',
      module: 'commonjs',
      moduleResolution: 'node',
      lib: ['ES2022', 'DOM'],
      strict: true,
      noUncheckedIndexedAccess: true,
      skipLibCheck: true,
      types: ['node'],
      typeRoots: [join(repoRoot, 'node_modules/@types')],
      outDir: 'out',
    },
    files: [entry],
  });

const tsc = (dir: string) => timed(process.execPath, [join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', dir]);

describe('conformance: the OpenAPI document with redocly and three client generators', function () {
  this.timeout(600_000);
  let work: string;
  let server: Running;
  let baseUrl: string;
  let generated: Promise<unknown>;

  before(async () => {
    work = await mkdtemp(join(tmpdir(), 'dsync-clients-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = run('node', ['--import', 'tsx', 'src/cli.ts', 'serve'], {
      PORT: String(port),
      METRICS_PORT: '0',
      DSYNC_API_KEYS: KEY,
      DSYNC_EXTERNAL_URL: baseUrl,
      LOG_LEVEL: 'warn',
    });
    // Both openapi-generator clients in one JVM (its start-up is most of the cost), without docs and tests.
    const config = (generator: string, dir: string, extra: string) =>
      `generatorName: ${generator}\ninputSpec: ${OPENAPI_FILE}\noutputDir: ${join(work, dir)}\n` +
      'globalProperties:\n  apiDocs: false\n  modelDocs: false\n  apiTests: false\n  modelTests: false\n' +
      extra;
    await writeFile(
      join(work, 'python.yaml'),
      config('python', 'python', 'additionalProperties:\n  packageName: dsync_client\n'),
    );
    await writeFile(join(work, 'fetch.yaml'), config('typescript-fetch', 'fetch/generated', ''));
    generated = timed('java', [
      '-jar',
      toolBinary('OPENAPI_GENERATOR_JAR'),
      'batch',
      '--fail-fast',
      join(work, 'python.yaml'),
      join(work, 'fetch.yaml'),
    ]).then(({ seconds }) =>
      console.log(`      openapi-generator (python, typescript-fetch): ${seconds.toFixed(1)} s`),
    );
    generated.catch(() => undefined); // awaited by the tests that need it
    await waitHealthy(port, server);
  });
  after(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
    await rm(work, { recursive: true, force: true });
  });

  it('redocly lint with the recommended ruleset finds no error', async () => {
    const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
    const lint = await exec(bin('redocly'), ['lint', OPENAPI_FILE, '--extends', 'recommended', '--format', 'json'], {
      env,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((err: { stdout: string }) => err);
    const report = JSON.parse(lint.stdout.slice(lint.stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: Array<{ ruleId: string; severity: string; message: string }>;
    };
    expect(
      report.problems.filter((p) => p.severity === 'error'),
      'redocly errors',
    ).to.deep.equal([]);
    expect(report.totals.errors).to.equal(0);
    // Known warnings only: the API's two paths that look ambiguous to it, and no 2xx on the OAuth start link (it only
    // ever redirects, 303, or answers an error page). Every operation lists a 4xx: at least the 431 of a request
    // line over Node's limit.
    expect([...new Set(report.problems.map((p) => p.ruleId))].sort()).to.deep.equal([
      'no-ambiguous-paths',
      'operation-2xx-response',
    ]);
    expect(report.problems.filter((p) => p.ruleId === 'operation-2xx-response')).to.have.length(1);
  });

  it('openapi-generator python: the package byte-compiles, imports, and runs the scenario', async () => {
    await generated;
    const python = toolBinary('CLIENTS_PYTHON_BIN');
    const dir = join(work, 'python');
    await timed(python, ['-m', 'compileall', '-q', join(dir, 'dsync_client')]);
    const { stdout } = await timed(python, [join(SCENARIOS, 'scenario.py'), baseUrl, KEY], {
      env: { ...process.env, PYTHONPATH: dir },
    });
    expectScenario(stdout);
  });

  it('openapi-generator typescript-fetch: compiles in strict TypeScript with the scenario, which runs', async () => {
    await generated;
    const dir = join(work, 'fetch');
    for (const f of ['fetch-scenario.ts', 'scim.ts']) await cp(join(SCENARIOS, f), join(dir, f));
    await writeFile(join(dir, 'tsconfig.json'), tsconfig('fetch-scenario.ts'));
    const { seconds } = await tsc(dir);
    console.log(`      tsc (typescript-fetch client): ${seconds.toFixed(1)} s`);
    expectScenario((await timed(process.execPath, [join(dir, 'out/fetch-scenario.js'), baseUrl, KEY])).stdout);
  });

  it('openapi-typescript with openapi-fetch: the types compile with the scenario, which runs', async () => {
    const dir = join(work, 'openapi-typescript');
    const { seconds } = await timed(process.execPath, [
      join(repoRoot, 'node_modules/openapi-typescript/bin/cli.js'),
      OPENAPI_FILE,
      '-o',
      join(dir, 'dsync-api.ts'),
    ]);
    console.log(`      openapi-typescript: ${seconds.toFixed(1)} s`);
    expect(await readFile(join(dir, 'dsync-api.ts'), 'utf8')).to.contain('"group.user_added"');
    for (const f of ['openapi-fetch-scenario.ts', 'scim.ts']) await cp(join(SCENARIOS, f), join(dir, f));
    await symlink(join(repoRoot, 'node_modules'), join(dir, 'node_modules'));
    await writeFile(join(dir, 'tsconfig.json'), tsconfig('openapi-fetch-scenario.ts'));
    await tsc(dir);
    expectScenario((await timed(process.execPath, [join(dir, 'out/openapi-fetch-scenario.js'), baseUrl, KEY])).stdout);
  });
});
