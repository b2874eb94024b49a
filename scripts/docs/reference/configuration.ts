/**
 * docs/reference/configuration.md from the zod schema of src/config.ts (names, types, schema defaults) and the
 * meanings beside it in src/config-docs.ts. A variable without a meaning is still listed, marked as such.
 */
import { z } from 'zod';
import { envSchema } from '../../../src/config.js';
import { ENV_DOCS, ENV_GROUPS, type EnvDoc } from '../../../src/config-docs.js';
import { code, generatedBanner, page, table } from './markdown.js';

type JsonSchema = {
  type?: string;
  enum?: unknown[];
  default?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
};

const UNDESCRIBED = 'Not described yet';
const BOOLEAN = ['0', '1', 'true', 'false'];

function jsonSchema(field: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(field, { io, unrepresentable: 'any' }) as JsonSchema;
}

/** What the schema says a value looks like: a boolean, one of an enum, an integer in a range, a URL. */
function typeOf(field: z.ZodType): string {
  const input = jsonSchema(field, 'input');
  // A pipe (trim, lower case, then an enum) has its enum on the output side.
  const values = input.enum ?? jsonSchema(field, 'output').enum;
  if (values && BOOLEAN.every((v) => values.includes(v))) return 'boolean (`true`, `false`, `1`, `0`)';
  if (values) return values.map((v) => code(String(v))).join(', ');
  if (input.type === 'integer') {
    const min = input.exclusiveMinimum !== undefined ? input.exclusiveMinimum + 1 : input.minimum;
    const max = input.maximum !== undefined && input.maximum < Number.MAX_SAFE_INTEGER ? input.maximum : undefined;
    if (min !== undefined && max !== undefined) return `integer (${min}–${max})`;
    return min !== undefined ? `integer (≥ ${min})` : 'integer';
  }
  if (input.format === 'uri') return 'URL';
  return input.type ?? 'string';
}

/** The schema's own default (`.default(…)`) in input form, else the one the code supplies, else none. */
function defaultOf(field: z.ZodType, doc: EnvDoc | undefined): string {
  const input = jsonSchema(field, 'input');
  if (input.default !== undefined) return code(String(input.default));
  return doc?.default ?? 'unset';
}

/** `shape`: the variables to list (the schema's own by default; a test adds one). */
export function configurationPage(shape: Record<string, z.ZodType> = envSchema.shape): string {
  const variables = Object.entries(shape).map(([name, field]) => ({ name, field, doc: ENV_DOCS[name] }));
  const row = ({ name, field, doc }: (typeof variables)[number]) => [
    code(name),
    doc?.type ?? typeOf(field),
    defaultOf(field, doc),
    doc?.meaning ?? `${UNDESCRIBED}: add it to \`src/config-docs.ts\`.`,
  ];
  const sections = [...ENV_GROUPS, UNDESCRIBED].flatMap((group) => {
    const rows = variables.filter((v) => (v.doc?.group ?? UNDESCRIBED) === group);
    return rows.length === 0 ? [] : [`## ${group}`, table(['Variable', 'Type', 'Default', 'Meaning'], rows.map(row))];
  });
  return page(
    generatedBanner('the zod schema in `src/config.ts` and the meanings in `src/config-docs.ts`'),
    '# Configuration',
    'Every dsync process (`serve`, `operator`, the `cron` jobs) is configured by environment variables, validated at start-up: a bad value stops the process with a message naming the variable. Each process reads the ones it needs; `KUBECONFIG` is read by the Kubernetes client itself.',
    ...sections,
  );
}
