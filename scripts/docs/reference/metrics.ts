/**
 * docs/reference/metrics.md from the prom-client registries the processes build: `dsync serve`'s Metrics and
 * the operator's ProcessMetrics + OperatorMetrics. Each family once, with the processes that export it; the
 * Node.js defaults of prom-client are named in one line rather than documented.
 */
import { collectDefaultMetrics, Registry } from 'prom-client';
import { Metrics, ProcessMetrics } from '../../../src/metrics.js';
import { OperatorMetrics } from '../../../src/operator/metrics.js';
import { code, generatedBanner, page, table } from './markdown.js';

interface Family {
  name: string;
  help: string;
  type: string;
  labelNames: string[];
}

const families = (registry: Registry): Family[] => registry.getMetricsAsArray() as unknown as Family[];

export interface ProcessRegistry {
  process: string;
  registry: Registry;
}

/** The registries as `dsync serve` and `dsync operator` build them. */
export function processRegistries(): ProcessRegistry[] {
  const operator = new ProcessMetrics();
  new OperatorMetrics(operator.registry);
  return [
    { process: '`dsync serve`', registry: new Metrics().registry },
    { process: '`dsync operator`', registry: operator.registry },
  ];
}

export function metricsPage(registries: ProcessRegistry[] = processRegistries()): string {
  const defaults = new Registry();
  collectDefaultMetrics({ register: defaults });
  const nodeDefaults = new Set(families(defaults).map((f) => f.name));
  const byName = new Map<string, Family & { from: string[] }>();
  for (const { process, registry } of registries) {
    for (const family of families(registry).filter((f) => !nodeDefaults.has(f.name))) {
      const entry = byName.get(family.name) ?? { ...family, from: [] };
      entry.from.push(process);
      byName.set(family.name, entry);
    }
  }
  const rows = [...byName.values()]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((f) => [code(f.name), f.type, f.labelNames.map(code).join(', '), f.help, f.from.join(', ')]);
  return page(
    generatedBanner('the prom-client registries of `src/metrics.ts` and `src/operator/metrics.ts`'),
    '# Metrics',
    'Every long-running dsync process serves Prometheus metrics on `METRICS_PORT` (`/metrics`, default 9464), and exports only its own families. No label carries a tenant, directory, namespace or object name, so the number of series stays bounded.',
    table(['Metric', 'Type', 'Labels', 'Help', 'Exported by'], rows),
    `Every process also exports prom-client's Node.js defaults: ${[...nodeDefaults].sort().map(code).join(', ')}.`,
  );
}
