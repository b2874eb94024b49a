// The chart's one rule for its values: every key the chart reads is declared in values.yaml, in
// values.schema.json and on the chart values reference page; the schema is strict everywhere, so a key it does
// not know (a typo such as serve.replica) is refused with its name instead of being silently ignored.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { parse } from 'yaml';
import { CHART_DIR, helms, REQUIRED_VALUES, run, setArgs } from './helm-tools.js';

type Json = { [key: string]: unknown };
type Schema = Json & {
  properties?: Record<string, Schema>;
  additionalProperties?: boolean | Schema;
  items?: Schema;
  $ref?: string;
  $comment?: string;
  type?: unknown;
};

const VALUES = parse(readFileSync(join(CHART_DIR, 'values.yaml'), 'utf8')) as Json;
const SCHEMA = JSON.parse(readFileSync(join(CHART_DIR, 'values.schema.json'), 'utf8')) as Schema & {
  definitions: Record<string, Schema>;
};
const REFERENCE = readFileSync(new URL('../../docs/reference/chart-values.md', import.meta.url), 'utf8');
const TEMPLATES_DIR = join(CHART_DIR, 'templates');
const PRODUCTION_VALUES = fileURLToPath(new URL('../../deploy/values-production.yaml', import.meta.url));

const isMap = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const resolve = (node: Schema): Schema =>
  node.$ref ? SCHEMA.definitions[node.$ref.replace('#/definitions/', '')]! : node;

/** Every object of the schema, with its path (definitions included, reached through $ref or not). */
function schemaObjects(): Array<{ path: string; node: Schema }> {
  const out: Array<{ path: string; node: Schema }> = [];
  const walk = (node: Schema, path: string) => {
    if (node.type === 'object' || node.properties) out.push({ path, node });
    for (const [key, child] of Object.entries(node.properties ?? {})) walk(child, `${path}.${key}`);
    if (isMap(node.additionalProperties)) walk(node.additionalProperties as Schema, `${path}.*`);
    if (node.items) walk(node.items, `${path}[]`);
  };
  walk(SCHEMA, '');
  for (const [name, node] of Object.entries(SCHEMA.definitions)) walk(node, `#${name}`);
  return out;
}

/** The schema node of a values path (undefined: not declared). */
function schemaAt(path: string[]): Schema | undefined {
  let node: Schema | undefined = SCHEMA;
  for (const key of path) {
    node = resolve(node);
    if (node.properties?.[key]) node = node.properties[key];
    else if (isMap(node.additionalProperties)) node = node.additionalProperties as Schema;
    else if (node.$comment && !node.properties)
      return node; // a Kubernetes object the API server checks below here
    else return undefined;
  }
  return resolve(node);
}

/** Whether values.yaml declares a path: a key of its, or a key of a map it declares as free-form (podAnnotations). */
function declared(path: string[]): boolean {
  let value: unknown = VALUES;
  for (const [i, key] of path.entries()) {
    if (!isMap(value)) return false;
    if (!(key in value)) return isMap(schemaAt(path.slice(0, i))?.additionalProperties);
    value = value[key];
  }
  return true;
}

const at = (path: string[]): unknown => path.reduce<unknown>((v, k) => (v as Json)[k], VALUES);

/**
 * The values paths the templates read: `.Values.a.b`, `$x.b` after `$x := .Values.a`, `.b` inside a file-wide
 * `with .Values.a`, `pick .Values.a "b"`, and each component's own values (`.values.b` in the helpers a
 * component's template includes, with the component's values in the context).
 */
function templateReads(): string[][] {
  const files = readdirSync(TEMPLATES_DIR, { recursive: true, encoding: 'utf8' }).filter((f) =>
    /\.(ya?ml|tpl)$/.test(f),
  );
  const texts = new Map(files.map((f) => [f, readFileSync(join(TEMPLATES_DIR, f), 'utf8')]));
  const reads: string[][] = [];
  const values = (expr: string) => expr.split('.').filter(Boolean);
  // A define, or a whole template file, is one scope for $ aliases.
  const scopes: Array<{ name: string; body: string }> = [];
  const defines = new Map<string, string>();
  for (const [file, text] of texts) {
    for (const m of text.matchAll(
      /\{\{-? define "([^"]+)" -?\}\}([\s\S]*?)\{\{-? end -?\}\}(?=\s*(?:\{\{\/\*|\{\{-? define|$))/g,
    )) {
      defines.set(m[1]!, m[2]!);
      scopes.push({ name: m[1]!, body: m[2]! });
    }
    if (!file.endsWith('.tpl')) scopes.push({ name: file, body: text });
  }
  for (const { body } of scopes) {
    for (const m of body.matchAll(/\.Values((?:\.[A-Za-z_]\w*)+)/g)) reads.push(values(m[1]!));
    for (const m of body.matchAll(/pick (?:\$|\.root)?\.Values((?:\.\w+)+)((?: "\w+")+)/g)) {
      for (const key of m[2]!.match(/\w+/g)!) reads.push([...values(m[1]!), key]);
    }
    for (const alias of body.matchAll(/\$(\w+) := (?:\$|\.root|\$root)?\.Values((?:\.\w+)+) ?\}\}/g)) {
      for (const m of body.matchAll(new RegExp(`\\$${alias[1]}((?:\\.[A-Za-z_]\\w*)+)`, 'g')))
        reads.push([...values(alias[2]!), ...values(m[1]!)]);
    }
  }
  const reach = (body: string, seen = new Set<string>()): string => {
    let all = body;
    for (const m of body.matchAll(/include "([^"]+)"/g)) {
      if (seen.has(m[1]!) || !defines.has(m[1]!)) continue;
      seen.add(m[1]!);
      all += reach(defines.get(m[1]!)!, seen);
    }
    return all;
  };
  for (const [file, text] of texts) {
    if (file.endsWith('.tpl')) continue;
    const within = /^\{\{-? with \.Values((?:\.\w+)+) -?\}\}/.exec(text);
    if (within) for (const m of text.matchAll(/(?<=[\s(])\.([a-z]\w*)\b/g)) reads.push([...values(within[1]!), m[1]!]);
    // The component whose values the file hands its helpers.
    const component =
      /"values" \.Values((?:\.\w+)+)/.exec(text)?.[1] ?? (/"values" \. /.test(text) ? within?.[1] : undefined);
    if (!component) continue;
    const code = reach(text);
    const aliases = [...code.matchAll(/\$(\w+) := \.values\b/g)].map((m) => m[1]!);
    for (const m of code.matchAll(/(?<![\w)])\.values\.([A-Za-z_]\w*)/g)) reads.push([...values(component), m[1]!]);
    for (const alias of aliases)
      for (const m of code.matchAll(new RegExp(`\\$${alias}\\.([A-Za-z_]\\w*)`, 'g')))
        reads.push([...values(component), m[1]!]);
  }
  return [...new Map(reads.map((r) => [r.join('.'), r])).values()];
}

/** The keys of values.yaml, a map's own keys included (serve.resources.requests.cpu). */
function valuePaths(value: unknown, path: string[] = []): string[][] {
  if (!isMap(value) || Object.keys(value).length === 0) return [path];
  return [path, ...Object.entries(value).flatMap(([k, v]) => valuePaths(v, [...path, k]))].filter((p) => p.length > 0);
}

describe('Chart values: one rule (declared, documented, strict)', function () {
  this.timeout(120_000);

  it('is strict everywhere: every object of the schema refuses keys it does not declare, or is a map, or says why not', () => {
    const loose = schemaObjects().filter(({ node }) => {
      if (node.properties) return node.additionalProperties !== false && !node.$comment;
      return !isMap(node.additionalProperties) && !node.$ref && !node.$comment;
    });
    expect(
      loose.map((o) => o.path),
      'objects of values.schema.json that accept any key',
    ).to.deep.equal([]);
    // The one object left open on purpose: a parent chart's globals reach this chart too.
    expect(SCHEMA.properties!['global']!.additionalProperties).to.equal(undefined);
    expect(SCHEMA.properties!['global']!.$comment).to.match(/parent/);
  });

  it('declares in the schema every key of values.yaml, and in values.yaml every key the schema declares for the chart', () => {
    const undeclared = valuePaths(VALUES)
      .filter((p) => !schemaAt(p))
      .map((p) => p.join('.'));
    expect(undeclared, 'keys of values.yaml the schema does not declare').to.deep.equal([]);
    // The schema's own objects (not a Kubernetes type it checks at its top level) declare only what values.yaml has.
    const extra: string[] = [];
    const walk = (node: Schema, path: string[]) => {
      const n = resolve(node);
      if (n.$comment) return;
      for (const [key, child] of Object.entries(n.properties ?? {})) {
        if (!declared([...path, key])) extra.push([...path, key].join('.'));
        else walk(child, [...path, key]);
      }
    };
    walk(SCHEMA, []);
    expect(extra, 'keys the schema declares that values.yaml does not').to.deep.equal([]);
  });

  it('declares in values.yaml every value the templates read', () => {
    const reads = templateReads();
    expect(reads.map((r) => r.join('.'))).to.include.members([
      'serve.replicas',
      'cron.syncGoogle.nodeSelector',
      'metrics.serviceMonitor.interval',
      'redis.tls.caSecret',
      'serve.autoscaling.minReplicas',
    ]);
    const missing = reads.filter((r) => !declared(r)).map((r) => r.join('.'));
    expect(missing, 'values the templates read that values.yaml does not declare').to.deep.equal([]);
  });

  it('documents every value on the chart values reference page (a # -- description each)', () => {
    const rows = [...REFERENCE.matchAll(/^\| `([^`]+)` \| [^|]* \| .* \| (.*) \|$/gm)].map((m) => ({
      key: m[1]!,
      description: m[2]!.trim(),
    }));
    expect(rows.length).to.be.above(100);
    expect(
      rows.filter((r) => r.description === '').map((r) => r.key),
      'values without a description',
    ).to.deep.equal([]);
    const keys = rows.map((r) => r.key);
    const leaves = valuePaths(VALUES).filter((p) => !isMap(at(p)) || Object.keys(at(p) as Json).length === 0);
    const covered = (path: string) => keys.some((k) => path === k || path.startsWith(`${k}.`));
    expect(
      leaves.map((p) => p.join('.')).filter((p) => !covered(p)),
      'values missing from docs/reference/chart-values.md',
    ).to.deep.equal([]);
  });

  for (const { name, bin: helm } of helms()) {
    describe(name, () => {
      it('helm lint --strict passes with the defaults, and with the production values of deploy/', async () => {
        for (const values of [setArgs(REQUIRED_VALUES), ['-f', PRODUCTION_VALUES]]) {
          const r = await run(helm, ['lint', '--strict', CHART_DIR, ...values]);
          expect(r.code, r.stdout + r.stderr).to.equal(0);
        }
      });

      it('refuses a key it does not know, naming it, at any depth (serve.replica=3 is a typo, not a no-op)', async () => {
        const cases: Array<[string[], RegExp]> = [
          [['--set', 'serve.replica=3'], /at '\/serve': additional properties 'replica' not allowed/],
          [['--set', 'replicas=2'], /additional properties 'replicas' not allowed/],
          [
            ['--set', 'cron.syncGoogle.nodeselector.pool=jobs'],
            /at '\/cron\/syncGoogle': additional properties 'nodeselector' not allowed/,
          ],
          [
            ['--set', 'serve.autoscaling.maxReplica=9'],
            /at '\/serve\/autoscaling': additional properties 'maxReplica' not allowed/,
          ],
          [
            ['--set-json', 'tolerations=[{"key":"a","efect":"NoSchedule"}]'],
            /at '\/tolerations\/0': additional properties 'efect' not allowed/,
          ],
          [['--set', 'metrics.serviceMonitor.intervall=1m'], /additional properties 'intervall' not allowed/],
          [
            ['--set', 'securityContext.readOnlyRootFileSystem=true'],
            /additional properties 'readOnlyRootFileSystem' not allowed/,
          ],
        ];
        for (const [args, message] of cases) {
          const r = await run(helm, ['template', 'dsync', CHART_DIR, ...setArgs(REQUIRED_VALUES), ...args]);
          expect(r.code, args.join(' ')).to.not.equal(0);
          expect(r.stderr, args.join(' ')).to.match(message);
        }
        // A parent chart's globals are not this chart's business.
        const parent = await run(helm, [
          'template',
          'dsync',
          CHART_DIR,
          ...setArgs(REQUIRED_VALUES),
          '--set',
          'global.storageClass=fast',
        ]);
        expect(parent.code, parent.stderr).to.equal(0);
      });
    });
  }
});
