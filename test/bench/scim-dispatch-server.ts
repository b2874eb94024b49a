/**
 * A server for scim-dispatch.bench.ts: express with the SCIM endpoint's shape and a stub handler, either behind the
 * express mount (`mount`: app.use(prefix, ...steps, Router)), the dispatcher mounted first (`dispatch`) or run
 * ahead of express's router (`ahead`, as src/http/app.ts serves SCIM); the real body rule, four no-op steps where
 * the edge, gate and limits sit. `node` is what is left without express at all: node:http, the same body-parser and
 * the same steps, matching the prefix by hand (what express still costs on the dispatcher's path). `<kind>+types`:
 * the server's request and response classes born with the app's prototypes (src/http/server/express-types.ts, as dsync
 * serve runs). Answers its port over IPC, then its CPU time (process.cpuUsage, µs) on each `{ cpu: true }`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { MAX_BODY_BYTES } from '../../src/core/input-limits.js';
import { expressTypes } from '../../src/http/server/express-types.js';
import { jsonBody } from '../../src/http/middleware/json-body.js';
import { dispatchAhead, scimDispatch } from '../../src/http/middleware/scim-dispatch.js';

const kind = process.argv[2]!.split('+')[0] as 'mount' | 'dispatch' | 'ahead' | 'node';
const PREFIX = '/api/scim/v2.0';
const ROUTE = '/:directoryId/:resourceType{/:resourceId}';
const step: RequestHandler = (_req, _res, next) => next();
const steps = [step, step, step, step];
const body = jsonBody({ limit: MAX_BODY_BYTES, strict: false });
const handle: RequestHandler = (req, res) => {
  res.status(200).setHeader('Content-Type', 'application/scim+json; charset=utf-8');
  res.end(JSON.stringify({ id: req.params.resourceId, ...(req.body as object) }));
};
const errors: ErrorRequestHandler = (err: { status?: number }, _req, res, _next) => {
  res.status(err.status ?? 500).end();
};

const app = express();
app.disable('x-powered-by');
app.set('etag', false);
app.set('query parser', 'simple');
const dispatcher = scimDispatch({ prefix: PREFIX, before: steps, body, path: ROUTE, handle, errors });
if (kind === 'dispatch') app.use(dispatcher);
else if (kind === 'ahead') dispatchAhead(app, dispatcher);
else if (kind === 'mount') {
  const r = Router();
  r.use(body);
  r.all(ROUTE, handle);
  r.use(errors);
  // The app-level layers dsync has before its SCIM mount: the edge (three) and two GET pages.
  app.use(step, step, step);
  app.get('/healthz', step);
  app.get('/readyz', step);
  app.use(PREFIX, step, r);
}
const parse = express.json({ limit: MAX_BODY_BYTES, strict: false, type: () => true });
const bare = (req: IncomingMessage, res: ServerResponse): void => {
  const [directoryId, , resourceId] = (req.url ?? '').slice(PREFIX.length + 1).split('/');
  let i = 0;
  const next = (): void => {
    if (i < steps.length) return void steps[i++]!(req as express.Request, res as express.Response, next);
    if (i++ === steps.length) return void parse(req, res, next);
    res.writeHead(200, { 'Content-Type': 'application/scim+json; charset=utf-8' });
    res.end(JSON.stringify({ id: resourceId, directoryId, ...((req as { body?: object }).body ?? {}) }));
  };
  next();
};
// `<kind>+types`: request and response born with the app's prototypes (src/http/server/express-types.ts, as dsync
// serve).
const types = expressTypes();
types.adopt(app);
const classes = process.argv[2]!.endsWith('+types') ? types.options : {};
const server = createServer(classes, kind === 'node' ? bare : app);
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
process.on('message', () => {
  const { user, system } = process.cpuUsage();
  process.send!({ cpuUs: user + system });
});
process.on('disconnect', () => process.exit(0));
