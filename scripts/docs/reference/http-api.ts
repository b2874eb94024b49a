/**
 * docs/reference/http-api.md rendered from docs/openapi.json (which `npm run openapi` writes from the route
 * table): the operations by tag with their parameters, bodies, answers and examples, the webhooks, and every
 * named schema. Schemas are linked by name, never expanded twice.
 */
import { readFileSync } from 'node:fs';
import { describe, fieldRows, localRefs, typeName, type JsonSchema } from './json-schema.js';
import { code, generatedBanner, page, prose, table } from './markdown.js';

export const OPENAPI_FILE = new URL('../../../docs/openapi.json', import.meta.url);

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  deprecated?: boolean;
  description?: string;
  schema: JsonSchema;
}
interface Media {
  schema?: JsonSchema;
  examples?: Record<string, { value: unknown }>;
}
interface Response {
  $ref?: string;
  description: string;
  headers?: Record<string, unknown>;
  content?: Record<string, Media>;
}
interface Operation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, Media> };
  responses: Record<string, Response>;
}
export interface Document {
  info: { title: string; version: string; description?: string };
  tags: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, JsonSchema>;
    responses: Record<string, Response>;
    securitySchemes: Record<string, { description?: string }>;
  };
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete', 'head', 'options'];
const schemaAnchor = (name: string) => `schema-${name.toLowerCase()}`;
const operationAnchor = (id: string) => `op-${id.toLowerCase()}`;

function json(value: unknown): string {
  return `\`\`\`json\n${JSON.stringify(value, null, 2)}\n\`\`\``;
}

function renderer(document: Document) {
  const refs = localRefs(document as unknown as JsonSchema, (name) => `[${name}](#${schemaAnchor(name)})`);
  const response = (r: Response): Response => (r.$ref ? (refs.resolve(r.$ref).schema as unknown as Response) : r);
  const firstExample = (media: Media | undefined) => Object.values(media?.examples ?? {})[0]?.value;

  function operation(method: string, path: string, op: Operation, webhook = false): string[] {
    const parameters = (op.parameters ?? []).map((p) => [
      code(p.name),
      p.in,
      typeName(p.schema, refs),
      p.required ? 'yes' : '',
      `${p.deprecated ? '**Deprecated.** ' : ''}${describe({ ...p.schema, ...(p.description && { description: p.description }) })}`,
    ]);
    const body = op.requestBody && Object.entries(op.requestBody.content)[0];
    const answers = Object.entries(op.responses).map(([status, given]) => {
      const r = response(given);
      const media = Object.values(r.content ?? {})[0];
      return [
        status,
        r.description,
        media?.schema ? typeName(media.schema, refs) : '',
        Object.keys(r.headers ?? {})
          .map(code)
          .join(', '),
      ];
    });
    const success = Object.entries(op.responses).find(([status]) => status.startsWith('2'));
    const successExample = success && firstExample(Object.values(response(success[1]).content ?? {})[0]);
    return [
      `### ${op.summary ?? op.operationId} {#${operationAnchor(op.operationId)}}`,
      `${code(`${method.toUpperCase()} ${path}`)}${op.security?.length === 0 && !webhook ? ' (no authentication)' : ''}`,
      prose(op.description ?? ''),
      parameters.length > 0 ? table(['Parameter', 'In', 'Type', 'Required', 'Description'], parameters) : '',
      body
        ? `Request body (${code(body[0])}${op.requestBody!.required ? ', required' : ''}): ${body[1].schema ? typeName(body[1].schema, refs) : 'any'}`
        : '',
      body && firstExample(body[1]) !== undefined ? `Example request body:\n\n${json(firstExample(body[1]))}` : '',
      table(['Status', 'Meaning', 'Body', 'Headers'], answers),
      successExample !== undefined ? `Example answer (${success![0]}):\n\n${json(successExample)}` : '',
    ].filter(Boolean);
  }

  function operations(): string[] {
    const all = Object.entries(document.paths).flatMap(([path, item]) =>
      METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method]! })),
    );
    // Declared tags first, in their order; a tag an operation uses without declaring it, or none, still gets a section.
    const declared = document.tags.map((t) => t.name);
    const used = all.flatMap(({ op }) => op.tags ?? ['Other']);
    const tags = [
      ...document.tags,
      ...[...new Set(used)]
        .filter((name) => !declared.includes(name))
        .map((name) => ({ name, description: undefined })),
    ];
    return tags
      .filter((tag) => used.includes(tag.name))
      .flatMap((tag) => [
        `## ${tag.name}`,
        tag.description ? prose(`${tag.description}.`) : '',
        ...all
          .filter(({ op }) => (op.tags ?? ['Other']).includes(tag.name))
          .flatMap(({ method, path, op }) => operation(method, path, op)),
      ]);
  }

  function webhooks(): string[] {
    const rows = Object.entries(document.webhooks).flatMap(([name, item]) =>
      METHODS.filter((m) => item[m]).map((m) => {
        const body = Object.values(item[m]!.requestBody?.content ?? {})[0];
        return [code(name), item[m]!.summary ?? '', body?.schema ? typeName(body.schema, refs) : ''];
      }),
    );
    const any = Object.values(document.webhooks)[0]?.['post'];
    return [
      '## Webhooks',
      "The POSTs dsync sends to each directory's webhook: one event per POST in real time, an array in batch mode. The fields of every event are on the [Events](events.md) page; [receiving webhooks](../guides/webhooks/index.md) shows how to verify them.",
      prose(any?.description ?? ''),
      table(['Webhook', 'When', 'Body'], rows),
    ];
  }

  function schemas(): string[] {
    return [
      '## Schemas',
      ...Object.entries(document.components.schemas).flatMap(([name, schema]) => {
        const rows = fieldRows(schema, refs).map((f) => [code(f.path), f.type, f.required ? 'yes' : '', f.description]);
        return [
          `### ${name} {#${schemaAnchor(name)}}`,
          prose(schema.description ?? ''),
          rows.length > 0 ? table(['Field', 'Type', 'Required', 'Description'], rows) : `${typeName(schema, refs)}.`,
        ].filter(Boolean);
      }),
    ];
  }

  return { operations, webhooks, schemas };
}

export function httpApiPage(document: Document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Document): string {
  const render = renderer(document);
  const auth = Object.entries(document.components.securitySchemes).map(
    ([name, s]) => `${code(name)}: ${s.description ?? ''}`,
  );
  return page(
    generatedBanner('`docs/openapi.json` (written from the route table by `npm run openapi`)'),
    '# HTTP API',
    prose(`${document.info.title} ${document.info.version}. ${document.info.description ?? ''}`),
    `Authentication: ${prose(auth.join('; '))} The document itself is [\`openapi.json\`](../openapi.json) (also served at \`GET /api/v1/openapi.json\`); generate a client from it, or use the typed client of the npm package.`,
    ...render.operations(),
    ...render.webhooks(),
    ...render.schemas(),
  );
}
