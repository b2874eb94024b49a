/**
 * A "ceiling" SCIM server for scim-ceiling.bench.ts: what the same stack costs without dsync's work. It parses
 * each SCIM request, stores nothing, answers with the shape dsync answers (201 + resource, 200 + resource, 204
 * for a member PATCH, an empty ListResponse for a lookup) and POSTs one signed webhook per change to the
 * receiver, one POST in flight at a time and in order, as dsync delivers a directory's events in real time.
 *
 *   forked with argv [express|http, <receiver url>]; answers its port over IPC.
 *
 * `express`: express 5 with dsync's own body parsing (src/http/json-body.ts) and routing shape;
 * `http`: plain node:http, the body read and JSON.parse'd by hand.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Agent, request } from 'undici';
import { MAX_BODY_BYTES } from '../../src/core/limits.js';
import { sign } from '../../src/delivery/signer.js';
import { jsonBody } from '../../src/http/json-body.js';

const [kind, receiver] = process.argv.slice(2) as ['express' | 'http', string];
const SECRET = 'ceiling-webhook-secret';
const SCIM_JSON = 'application/scim+json; charset=utf-8';
type Body = Record<string, any>;
interface Answer {
  status: number;
  body?: unknown;
  location?: string;
}

// Delivery: a queue drained by one loop, one POST at a time (dsync's real-time order per directory).
const agent = new Agent({ keepAliveTimeout: 30_000 });
const queue: string[] = [];
let pumping = false;
let seq = 0;

async function pump(): Promise<void> {
  if (pumping) return;
  pumping = true;
  try {
    while (queue.length > 0) {
      const json = queue.shift()!;
      const id = /^\{"id":"([^"]+)"/.exec(json)![1]!;
      const res = await request(receiver, {
        method: 'POST',
        dispatcher: agent,
        headers: { 'content-type': 'application/json', 'user-agent': 'ceiling/1', ...sign(SECRET, id, json) },
        body: json,
      });
      await res.body.dump();
    }
  } finally {
    pumping = false;
  }
}

function emit(directoryId: string, event: string, data: unknown): void {
  const now = Date.now();
  queue.push(JSON.stringify({ id: `evt_${now}_${++seq}`, event, created_at: new Date(now).toISOString(), directory_id: directoryId, tenant: 'bench', product: 'bench', data }));
}

const userData = (id: string, b: Body) => ({
  id,
  first_name: b.name?.givenName,
  last_name: b.name?.familyName,
  email: b.emails?.[0]?.value ?? b.userName,
  active: b.active !== false,
  raw: { ...b, id },
});

let ids = 0;
const newId = () => `c${process.pid}-${++ids}`;

function resource(base: string, type: 'User' | 'Group', id: string, body: Body): Body {
  const now = new Date().toISOString();
  const { members: _members, ...rest } = body;
  return { ...rest, id, meta: { resourceType: type, created: now, lastModified: now, location: `${base}/${type}s/${id}`, version: 'W/"1"' } };
}

/** The ceiling's whole SCIM: answer, and queue the events a real server would emit. */
function answer(method: string, directoryId: string, type: string, id: string | undefined, body: Body | undefined): Answer {
  const base = `http://ceiling/api/scim/v2.0/${directoryId}`;
  const users = type.toLowerCase() === 'users';
  if (method === 'GET' && !id) return { status: 200, body: { schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] } };
  if (!body || typeof body !== 'object') return { status: 400, body: { status: '400', detail: 'a JSON body is required' } };
  if (method === 'POST' && !id) {
    const newOne = newId();
    if (users) emit(directoryId, 'user.created', userData(newOne, body));
    else {
      const group = { id: newOne, name: body.displayName, raw: { ...body, members: undefined, id: newOne } };
      emit(directoryId, 'group.created', group);
      for (const m of body.members ?? []) emit(directoryId, 'group.user_added', { id: m.value, active: true, raw: { id: m.value }, group });
    }
    return { status: 201, body: resource(base, users ? 'User' : 'Group', newOne, body), location: `${base}/${users ? 'Users' : 'Groups'}/${newOne}` };
  }
  if (!id) return { status: 405 };
  if (method === 'PUT') {
    emit(directoryId, users ? 'user.updated' : 'group.updated', users ? userData(id, body) : { id, name: body.displayName, raw: { ...body, id } });
    return { status: 200, body: resource(base, users ? 'User' : 'Group', id, body) };
  }
  if (method === 'PATCH') {
    const patched: Body = {};
    for (const op of (body.Operations ?? []) as Body[]) {
      if (!users && typeof op.path === 'string' && /^members/i.test(op.path)) {
        const group = { id, name: '', raw: { id } };
        for (const m of (op.value ?? []) as Body[]) emit(directoryId, op.op === 'remove' ? 'group.user_removed' : 'group.user_added', { id: m.value, active: true, raw: { id: m.value }, group });
      } else if (op.value && typeof op.value === 'object') Object.assign(patched, op.value);
    }
    if (!users) return { status: 204 };
    emit(directoryId, 'user.updated', userData(id, patched));
    return { status: 200, body: resource(base, 'User', id, { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], ...patched }) };
  }
  return { status: 405 };
}

function send(res: ServerResponse, a: Answer): void {
  if (a.location) res.setHeader('Location', a.location);
  if (a.body === undefined) res.writeHead(a.status).end();
  else res.writeHead(a.status, { 'Content-Type': SCIM_JSON }).end(JSON.stringify(a.body));
  void pump();
}

const PATH = /^\/api\/scim\/v2\.0\/([^/]+)\/([^/?]+)(?:\/([^/?]+))?/;

function plainServer() {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const m = PATH.exec(req.url ?? '');
      if (!m) return send(res, { status: 404 });
      let body: Body | undefined;
      try {
        body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body) : undefined;
      } catch {
        return send(res, { status: 400 });
      }
      send(res, answer(req.method ?? 'GET', decodeURIComponent(m[1]!), m[2]!, m[3] && decodeURIComponent(m[3]), body));
    });
  });
}

function expressServer() {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('query parser', 'simple');
  const scim = express.Router();
  scim.use(jsonBody({ limit: MAX_BODY_BYTES, strict: false }));
  scim.all('/:directoryId/:resourceType{/:resourceId}', (req, res) => {
    const { directoryId, resourceType, resourceId } = req.params as Record<string, string>;
    send(res, answer(req.method, directoryId!, resourceType!, resourceId, req.body as Body | undefined));
  });
  app.use('/api/scim/v2.0', scim);
  return createServer(app);
}

const server = kind === 'express' ? expressServer() : plainServer();
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
// A normal exit, so that --cpu-prof writes its profile.
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
