/**
 * docs/reference/events.md from the event schemas of src/core/event-schema.ts: per event type, its fields
 * (the envelope and the data it carries) and the schema's example.
 */
import { z } from 'zod';
import { EVENT_TYPES, eventSchemas } from '../../../src/core/event-schema.js';
import { fieldRows, localRefs, type JsonSchema } from './json-schema.js';
import { code, generatedBanner, page, table } from './markdown.js';

function eventSection(type: (typeof EVENT_TYPES)[number]): string[] {
  const document = z.toJSONSchema(eventSchemas[type], { io: 'output' }) as JsonSchema;
  const refs = localRefs(document);
  const schema = refs.resolve(document.$ref!).schema;
  const rows = fieldRows(schema, refs).map((f) => [code(f.path), f.type, f.required ? 'yes' : '', f.description]);
  const example = (schema['examples'] as unknown[] | undefined)?.[0];
  return [
    `## ${code(type)}`,
    table(['Field', 'Type', 'Required', 'Description'], rows),
    example !== undefined && `Example:\n\n\`\`\`json\n${JSON.stringify(example, null, 2)}\n\`\`\``,
  ].filter((part): part is string => typeof part === 'string');
}

export function eventsPage(): string {
  return page(
    generatedBanner('the event schemas in `src/core/event-schema.ts`'),
    '# Events',
    `Every change in a directory becomes one of these events, delivered to the directory's webhook (signed the Standard Webhooks way) and readable through the Events API. In batch mode a delivery is a JSON array of them. The same schemas are exported by the npm package (\`directorySyncEventSchema\`) and are the \`webhooks\` of the [OpenAPI document](http-api.md). Types: ${EVENT_TYPES.map(code).join(', ')}.`,
    ...EVENT_TYPES.flatMap(eventSection),
  );
}
