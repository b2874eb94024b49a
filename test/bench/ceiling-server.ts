/**
 * A "ceiling" SCIM server for scim-ceiling.bench.ts: what the same stack costs without dsync's work. It parses
 * each SCIM request, stores nothing, answers with the shape dsync answers (201 + resource, 200 + resource, 204
 * for a member PATCH, an empty ListResponse for a lookup) and POSTs one signed webhook per change to the
 * receiver, one POST in flight at a time and in order, as dsync delivers a directory's events in real time.
 *
 *   forked with argv [express|http|express-redis, <receiver url>, <redis url>]; answers its port over IPC.
 *
 * `express`: express 5 served as dsync serves it (requests born with the app's prototypes,
 * src/http/server/express-types.ts)
 * with dsync's own body parsing (src/http/middleware/json-body.ts) and routing shape;
 * `http`: plain node:http, the body read and JSON.parse'd by hand;
 * `express-redis`: `express` plus the least a server that keeps what it is sent pays for it: before answering,
 * one Redis round trip per request (a lookup GETs its index key; a write is one MULTI that SETs the resource and
 * RPUSHes its events), on a Redis of its own beside it. No history, no diff, no delivery state: a floor under any
 * durable store on the same cores, not a design.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { Redis } from 'ioredis';
import { Agent, request } from 'undici';
import { MAX_BODY_BYTES } from '../../src/core/input-limits.js';
import { sign } from '../../src/delivery/signer.js';
import { expressTypes } from '../../src/http/server/express-types.js';
import { jsonBody } from '../../src/http/middleware/json-body.js';

const [kind, receiver, redisUrl] = process.argv.slice(2) as [
  'express' | 'http' | 'express-redis',
  string,
  string | undefined,
];
const redis = kind === 'express-redis' ? new Redis(redisUrl!, { enableAutoPipelining: true }) : undefined;
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

/** The events of the request being answered, queued for delivery once it is answered (and stored). */
let emitted: string[] = [];

function emit(directoryId: string, event: string, data: unknown): void {
  const now = Date.now();
  emitted.push(
    JSON.stringify({
      id: `evt_${now}_${++seq}`,
      event,
      created_at: new Date(now).toISOString(),
      directory_id: directoryId,
      tenant: 'bench',
      product: 'bench',
      data,
    }),
  );
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
  return {
    ...rest,
    id,
    meta: { resourceType: type, created: now, lastModified: now, location: `${base}/${type}s/${id}`, version: 'W/"1"' },
  };
}

/** The ceiling's whole SCIM: answer, and queue the events a real server would emit. */
function answer(
  method: string,
  directoryId: string,
  type: string,
  id: string | undefined,
  body: Body | undefined,
): Answer {
  const base = `http://ceiling/api/scim/v2.0/${directoryId}`;
  const users = type.toLowerCase() === 'users';
  if (method === 'GET' && !id)
    return {
      status: 200,
      body: {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:ListResponse'],
        totalResults: 0,
        startIndex: 1,
        itemsPerPage: 0,
        Resources: [],
      },
    };
  if (!body || typeof body !== 'object')
    return { status: 400, body: { status: '400', detail: 'a JSON body is required' } };
  if (method === 'POST' && !id) {
    const newOne = newId();
    if (users) emit(directoryId, 'user.created', userData(newOne, body));
    else {
      const group = { id: newOne, name: body.displayName, raw: { ...body, members: undefined, id: newOne } };
      emit(directoryId, 'group.created', group);
      for (const m of body.members ?? [])
        emit(directoryId, 'group.user_added', { id: m.value, active: true, raw: { id: m.value }, group });
    }
    return {
      status: 201,
      body: resource(base, users ? 'User' : 'Group', newOne, body),
      location: `${base}/${users ? 'Users' : 'Groups'}/${newOne}`,
    };
  }
  if (!id) return { status: 405 };
  if (method === 'PUT') {
    emit(
      directoryId,
      users ? 'user.updated' : 'group.updated',
      users ? userData(id, body) : { id, name: body.displayName, raw: { ...body, id } },
    );
    return { status: 200, body: resource(base, users ? 'User' : 'Group', id, body) };
  }
  if (method === 'PATCH') {
    const patched: Body = {};
    for (const op of (body.Operations ?? []) as Body[]) {
      if (!users && typeof op.path === 'string' && /^members/i.test(op.path)) {
        const group = { id, name: '', raw: { id } };
        for (const m of (op.value ?? []) as Body[])
          emit(directoryId, op.op === 'remove' ? 'group.user_removed' : 'group.user_added', {
            id: m.value,
            active: true,
            raw: { id: m.value },
            group,
          });
      } else if (op.value && typeof op.value === 'object') Object.assign(patched, op.value);
    }
    if (!users) return { status: 204 };
    emit(directoryId, 'user.updated', userData(id, patched));
    return {
      status: 200,
      body: resource(base, 'User', id, { schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], ...patched }),
    };
  }
  return { status: 405 };
}

/** One MULTI: the resource and its events. */
function keep(r: Redis, key: string, json: string, log: string, events: string[]): Promise<unknown> {
  const tx = r.multi().set(key, json);
  return (events.length > 0 ? tx.rpush(log, ...events) : tx).exec();
}

/** Answers the request; `express-redis` first keeps it (one round trip), as a server that stores would. */
function handle(
  res: ServerResponse,
  method: string,
  directoryId: string,
  type: string,
  id: string | undefined,
  body: Body | undefined,
): void {
  emitted = [];
  const a = answer(method, directoryId, type, id, body);
  const events = emitted;
  if (!redis || a.status >= 400) return send(res, a, events);
  const key = `${directoryId}:${type}:${id ?? a.location ?? 'lookup'}`;
  const kept =
    method === 'GET' ? redis.get(key) : keep(redis, key, JSON.stringify(body), `${directoryId}:events`, events);
  kept.then(
    () => send(res, a, events),
    (err: Error) => send(res, { status: 503, body: { detail: err.message } }, []),
  );
}

function send(res: ServerResponse, a: Answer, events: string[]): void {
  queue.push(...events);
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
      if (!m) return send(res, { status: 404 }, []);
      let body: Body | undefined;
      try {
        body = chunks.length > 0 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body) : undefined;
      } catch {
        return send(res, { status: 400 }, []);
      }
      handle(res, req.method ?? 'GET', decodeURIComponent(m[1]!), m[2]!, m[3] && decodeURIComponent(m[3]), body);
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
    handle(res, req.method, directoryId!, resourceType!, resourceId, req.body as Body | undefined);
  });
  app.use('/api/scim/v2.0', scim);
  const types = expressTypes();
  types.adopt(app);
  return createServer(types.options, app);
}

const server = kind === 'http' ? plainServer() : expressServer();
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
// A normal exit, so that --cpu-prof writes its profile.
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
