/**
 * What the OpenAPI document must carry for a client author, checked on the generated document: every operation
 * described with examples (a route added without them fails here, naming it), every parameter described, the
 * examples true to the schemas the routes validate with, every answer a named component, null written the way
 * generators take it, events a discriminated union. A route that leaves all of it out still yields a valid
 * document (defaults), so the table's users are told here rather than broken elsewhere.
 */
import { expect } from 'chai';
import { z } from 'zod';
import { API_ROUTES } from '../../../src/http/api-routes.js';
import { buildOpenApiDocument, openApiPath } from '../../../src/http/openapi/document.js';
import { exampleOf } from '../../../src/http/openapi/json-schemas.js';
import { TAG_DESCRIPTIONS } from '../../../src/http/openapi/responses.js';
import { route } from '../../../src/http/openapi/route-table.js';

type Op = {
  operationId: string;
  description?: string;
  tags: string[];
  parameters?: Array<{ name: string; description?: string }>;
  requestBody?: { content: Record<string, { schema: unknown; examples?: Record<string, { value: unknown }> }> };
  responses: Record<
    string,
    {
      $ref?: string;
      content?: Record<string, { schema: { $ref?: string }; examples?: Record<string, { value: unknown }> }>;
    }
  >;
};
type Doc = {
  info: { license?: { name: string } };
  servers?: unknown[];
  tags: Array<{ name: string; description?: string }>;
  paths: Record<string, Record<string, Op>>;
  webhooks: Record<string, Record<string, Op>>;
  components: { schemas: Record<string, any> };
};

const doc = buildOpenApiDocument(API_ROUTES) as unknown as Doc;
const operations = [...Object.values(doc.paths), ...Object.values(doc.webhooks)].flatMap((ops) => Object.values(ops));

describe('OpenAPI document: what a client author meets', () => {
  it('every operation has an explicit operationId, a description and declared, described tags', () => {
    const missing = API_ROUTES.filter((r) => !r.operationId || !r.description).map((r) => `${r.method} ${r.path}`);
    expect(missing, 'routes without operationId or description: add them in the route table').to.deep.equal([]);
    for (const op of operations) expect(op.description, op.operationId).to.be.a('string').and.not.equal('');
    const ids = operations.map((op) => op.operationId);
    expect(new Set(ids).size).to.equal(ids.length);
    const declared = new Map(doc.tags.map((t) => [t.name, t.description]));
    for (const op of operations)
      for (const tag of op.tags)
        expect(declared.get(tag), `tag ${tag}: describe it in TAG_DESCRIPTIONS`).to.be.a('string');
  });

  it('every parameter is described', () => {
    const undescribed = operations.flatMap((op) =>
      (op.parameters ?? []).filter((p) => !p.description).map((p) => `${op.operationId}: ${p.name}`),
    );
    expect(undescribed).to.deep.equal([]);
  });

  it('every operation has an example body and an example of every success answer, true to the route schemas', () => {
    const lacking: string[] = [];
    for (const op of operations) {
      for (const [media, content] of Object.entries(op.requestBody?.content ?? {}))
        if (!content.examples) lacking.push(`${op.operationId} request ${media}`);
      for (const [status, response] of Object.entries(op.responses)) {
        if (!/^2/.test(status)) continue;
        for (const [media, content] of Object.entries(response.content ?? {}))
          if (!content.examples) lacking.push(`${op.operationId} ${status} ${media}`);
      }
    }
    expect(lacking, 'add meta examples to the schema, or an example to the route').to.deep.equal([]);
    // The examples parse with the schemas the routes validate (and answer) with.
    for (const r of API_ROUTES) {
      for (const [status, response] of Object.entries(r.responses)) {
        const parsed = response.data.safeParse(response.example ?? exampleOf(response.data));
        expect(parsed.success, `${r.operationId} ${status}: ${parsed.error?.message}`).to.equal(true);
      }
      if (r.body) {
        const parsed = r.body.safeParse(r.requestExample ?? exampleOf(r.body));
        expect(parsed.success, `${r.operationId} request: ${parsed.error?.message}`).to.equal(true);
      }
    }
  });

  it('every JSON answer is a named component, and no member is a bare {"type": "null"} (generators fail on it)', () => {
    for (const op of operations) {
      for (const [status, response] of Object.entries(op.responses)) {
        const schema = response.content?.['application/json']?.schema;
        if (op.operationId === 'getOpenApiDocument') continue; // the document itself
        if (schema)
          expect(schema.$ref, `${op.operationId} ${status}`).to.match(
            /^#\/components\/schemas\/\w+Envelope$|^#\/components\/schemas\/(Liveness|Readiness)$/,
          );
        else if (!response.content)
          expect(response.$ref ?? status, op.operationId).to.match(/^#\/components\/responses\/|^(2XX|303)$/);
      }
    }
    const bare: string[] = [];
    const walk = (node: unknown, path: string): void => {
      if (!node || typeof node !== 'object') return;
      if (!Array.isArray(node) && (node as { type?: unknown }).type === 'null' && !/\/(anyOf|oneOf)\/\d+$/.test(path))
        bare.push(path);
      for (const [k, v] of Object.entries(node)) walk(v, `${path}/${k}`);
    };
    walk(doc, '');
    expect(bare).to.deep.equal([]);
    expect(doc.components.schemas.ErrorDetail.properties).to.have.keys('message', 'code', 'id', 'requestId');
  });

  it('events are a oneOf discriminated by `event`, mapping each type to its schema', () => {
    const event = doc.components.schemas.DirectorySyncEvent;
    expect(event.oneOf).to.have.length(8);
    expect(event.discriminator.propertyName).to.equal('event');
    expect(event.discriminator.mapping['group.user_added']).to.equal('#/components/schemas/GroupUserAddedEvent');
    expect(doc.components.schemas.GroupUserAddedEvent.properties.data.$ref).to.equal('#/components/schemas/Membership');
  });

  it('has servers, a license and the cross-field rules the server applies', () => {
    expect(doc.servers).to.have.length(1);
    expect(doc.info.license?.name).to.equal('Apache-2.0');
    const body = (path: string, method: string) =>
      doc.paths[openApiPath(path)]![method]!.requestBody!.content['application/json']!.schema as any;
    expect(body('/directory-sync', 'post').$ref).to.equal('#/components/schemas/CreateDirectoryInput');
    expect(doc.components.schemas.CreateDirectoryInput.dependentRequired).to.deep.equal({
      webhook_secret: ['webhook_url'],
    });
    expect(doc.components.schemas.ReplayInput.oneOf).to.deep.equal([
      { required: ['since'] },
      { required: ['dead_letter_id'] },
    ]);
    expect(doc.components.schemas.UpdateDirectoryInput.properties.type.enum).to.include('okta-scim-v2');
    const redirect = doc.paths[openApiPath('/directory-sync/:id/google/authorization-url')]!.get!.parameters!.find(
      (p) => p.name === 'redirect_url',
    ) as any;
    expect(redirect.schema.format).to.equal('uri');
    const callback = doc.paths['/api/v1/dsync/google/callback']!.get!.parameters!.find(
      (p) => p.name === 'state',
    ) as any;
    expect(callback.required).to.equal(true);
  });

  it('a route added without operationId, description or examples still yields a valid document', () => {
    const bare = route({
      method: 'get',
      path: '/directory-sync/:id/things',
      summary: 'Things',
      tag: 'Things',
      params: z.object({ id: z.string() }),
      responses: { 200: { description: 'Things', data: z.object({ n: z.int() }) } },
      handle: async () => ({ n: 1 }),
    });
    const built = buildOpenApiDocument([...API_ROUTES, bare]) as unknown as Doc;
    const op = built.paths['/api/v1/directory-sync/{id}/things']!.get!;
    expect(op.operationId).to.equal('getDirectorySyncIdThings');
    expect(op.description).to.equal(undefined);
    expect(op.responses['200']!.content!['application/json']!.schema.$ref).to.equal(
      '#/components/schemas/GetDirectorySyncIdThingsEnvelope',
    );
    expect(op.responses['200']!.content!['application/json']!.examples).to.equal(undefined);
    expect(built.tags.map((t) => t.name)).to.include('Things');
    expect(TAG_DESCRIPTIONS).to.not.have.property('Things');
  });
});
