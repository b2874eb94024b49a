// helm (3 and 4) and kubectl for the chart tests, built by `bash test/k8s/helm.sh build`, and the chart's
// rendered objects.
import { execFile, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

export const CHART_DIR = fileURLToPath(new URL('../../charts/dsync', import.meta.url));
export const REPO_DIR = fileURLToPath(new URL('../..', import.meta.url));
const HELM_SH = fileURLToPath(new URL('./helm.sh', import.meta.url));

function toolPath(tool: 'helm3' | 'helm4' | 'kubectl' | 'promql-check' | 'registry' | 'cosign'): string | undefined {
  try {
    return execFileSync('bash', [HELM_SH, 'bin', tool], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined;
  }
}

/** Every Helm major helm.sh built (Helm 4 can be turned off with DSYNC_HELM4_VERSION=""). */
export function helms(): Array<{ name: string; bin: string }> {
  const found = (['helm3', 'helm4'] as const).flatMap((name) => {
    const bin = toolPath(name);
    return bin ? [{ name, bin }] : [];
  });
  if (found.length === 0) throw new Error('helm is not built: run `bash test/k8s/helm.sh build`');
  return found;
}

export function kubectl(): string {
  const bin = toolPath('kubectl');
  if (!bin) throw new Error('kubectl is not built: run `bash test/k8s/helm.sh build`');
  return bin;
}

/** Prometheus' PromQL parser: one JSON string per line on stdin, exit 1 with the errors if any is invalid. */
export function promqlCheck(): string {
  const bin = toolPath('promql-check');
  if (!bin) throw new Error('promql-check is not built: run `bash test/k8s/helm.sh build`');
  return bin;
}

/** A release tool helm.sh builds: the CNCF Distribution registry or cosign. */
export function toolBinary(tool: 'registry' | 'cosign'): string {
  const bin = toolPath(tool);
  if (!bin) throw new Error(`${tool} is not built: run \`bash test/k8s/helm.sh build\``);
  return bin;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command; resolves with its exit code and output (never rejects on a non-zero exit). */
export function run(
  bin: string,
  args: string[],
  opts: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      bin,
      args,
      {
        env: { ...process.env, ...opts.env },
        cwd: opts.cwd ?? REPO_DIR,
        maxBuffer: 64 * 1024 * 1024,
        timeout: 120_000,
      },
      (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number') reject(err);
        else resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
      },
    );
    if (opts.input !== undefined) child.stdin!.end(opts.input);
  });
}

/** Like run(), but a non-zero exit is an error carrying the command's output. */
export async function ok(bin: string, args: string[], opts: Parameters<typeof run>[2] = {}): Promise<string> {
  const r = await run(bin, args, opts);
  if (r.code !== 0) throw new Error(`${bin} ${args.join(' ')} exited ${r.code}\n${r.stderr}\n${r.stdout}`);
  return r.stdout;
}

/** The values every install needs (externalUrl, Redis, API keys). */
export const REQUIRED_VALUES: Record<string, string> = {
  externalUrl: 'https://dsync.example.com',
  'redis.existingSecret': 'dsync-redis',
  'apiKeys.existingSecret': 'dsync-api-keys',
};

/** `--set-json k=<json>` for each pair (a plain `--set` would split "5s,1m" at the comma). */
export function setArgs(values: Record<string, unknown>): string[] {
  return Object.entries(values).flatMap(([k, v]) => ['--set-json', `${k}=${JSON.stringify(v)}`]);
}

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

export function parseObjects(yamlText: string): K8sObject[] {
  return parseAllDocuments(yamlText)
    .map((d) => d.toJS() as K8sObject | null)
    .filter((o): o is K8sObject => o !== null && typeof o === 'object' && 'kind' in o);
}

/** `helm template` of the chart with REQUIRED_VALUES plus `values`; the rendered YAML. */
export function template(
  helm: string,
  values: Record<string, unknown> = {},
  opts: { release?: string; namespace?: string; extra?: string[] } = {},
): Promise<string> {
  return ok(helm, [
    'template',
    opts.release ?? 'dsync',
    CHART_DIR,
    '--namespace',
    opts.namespace ?? 'dsync-system',
    ...setArgs({ ...REQUIRED_VALUES, ...values }),
    ...(opts.extra ?? []),
  ]);
}

export function find(objects: K8sObject[], kind: string, name: string): K8sObject {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name} in: ${objects.map((x) => `${x.kind}/${x.metadata.name}`).join(', ')}`);
  return o;
}

const HELM_PAGE = readFileSync(new URL('../../docs/operating/helm.md', import.meta.url), 'utf8');

/** The shell lines of the Install with Helm page (docs/operating/helm.md): continuation lines joined, comments cut. */
export function helmPageLines(): string[] {
  return [...HELM_PAGE.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((m) => m[1]!.replace(/\\\n\s*/g, ' ').split('\n'))
    .map((l) => l.replace(/\s+#.*$/, '').trim());
}

/**
 * A command of the Install with Helm page, by how it starts, split into words: the page's own variables
 * (`REGISTRY=…`, `CHART=…`) expanded, `overrides` replacing some of them (a test's registry, the checkout's chart).
 */
export function helmPageCommand(startsWith: string, overrides: Record<string, string> = {}): string[] {
  const lines = helmPageLines();
  const vars: Record<string, string> = {};
  for (const l of lines) {
    const m = /^([A-Z_]+)=(\S+)$/.exec(l);
    if (m) vars[m[1]!] = m[2]!;
  }
  Object.assign(vars, overrides);
  const expand = (s: string): string =>
    s.replace(/"?\$([A-Z_]+)"?/g, (whole, name: string) => (name in vars ? expand(vars[name]!) : whole));
  const line = lines.find((l) => l.startsWith(startsWith));
  if (!line) throw new Error(`docs/operating/helm.md has no command starting with "${startsWith}"`);
  return expand(line).split(/\s+/);
}

/** The page's DirectoryConnection (its `kubectl apply -f - <<'YAML'` block). */
export function helmPageManifest(): string {
  const m = /<<'YAML'\n([\s\S]*?)\nYAML\n/.exec(HELM_PAGE);
  if (!m) throw new Error("docs/operating/helm.md has no kubectl apply -f - <<'YAML' block");
  return m[1]!;
}
