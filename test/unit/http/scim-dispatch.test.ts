/**
 * The SCIM dispatcher (src/http/middleware/scim-dispatch.ts) answers every request as the express mount it replaced:
 * `app.use(prefix, ...before, Router{ use(body), all(route), use(404), use(errors) })`. Both apps get the same
 * steps (a recording edge, a step that fails on demand, the real JSON body rule, an echoing handler) and the same
 * spellings, methods and bodies; their answers must be identical.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import express, { Router, type ErrorRequestHandler, type RequestHandler } from 'express';
import { jsonBody } from '../../../src/http/middleware/json-body.js';
import { dispatchAhead, scimDispatch } from '../../../src/http/middleware/scim-dispatch.js';
import { ScimError } from '../../../src/scim/errors.js';
import { fuzzSeed, spellings } from '../../support/path-spellings.js';

const PREFIX = '/api/scim/v2.0';
const ROUTE = '/:directoryId/:resourceType{/:resourceId}';
const SEED = fuzzSeed(2323);

const edge: RequestHandler = (req, res, next) => {
  res.setHeader('X-Edge', `${req.ip} ${req.method}`); // not the path: the mount trimmed req.url, the dispatcher does not (no step reads it)
  next();
};
/** Fails before the SCIM router (thrown, passed or rejected) when asked to: express's own error handling answers. */
const failing: RequestHandler = async (req, _res, next) => {
  const how = req.get('x-fail');
  if (how === 'throw') throw Object.assign(new Error('thrown'), { status: 418 });
  if (how === 'next') return next(Object.assign(new Error('passed'), { status: 419 }));
  if (how === 'reject') await Promise.reject(Object.assign(new Error('rejected'), { status: 420 }));
  next();
};
const body = jsonBody({ limit: '1kb', strict: false });
const handle: RequestHandler = async (req, res) => {
  if (req.get('x-fail') === 'handler') throw new Error('handler failed');
  res.json({ method: req.method, params: { ...req.params }, body: req.body as unknown, query: req.query });
};
const errors: ErrorRequestHandler = (err: { status?: number; message?: string }, _req, res, _next) => {
  res.status(err.status ?? 500).json({ scimError: err.message, notFound: err instanceof ScimError });
};
const outer = (app: express.Express) => {
  app.use((_req, res) => {
    res.status(404).json({ outer: 'not found' });
  });
  // The app's own error handling (express's final handler in the real app, whose page holds a stack trace).
  app.use(((err: { status?: number; message?: string }, _req, res, _next) => {
    res.status(err.status ?? 500).json({ outer: err.message });
  }) as ErrorRequestHandler);
  return app;
};

function expressMount(): express.Express {
  const app = express();
  app.set('query parser', 'simple');
  const r = Router();
  r.use(body);
  r.all(ROUTE, handle);
  r.use((_req, _res, next) => next(ScimError.notFound('Unknown SCIM path')));
  r.use(errors);
  app.use(PREFIX, edge, failing, r);
  return outer(app);
}

function dispatched(): express.Express {
  const app = express();
  app.set('query parser', 'simple');
  dispatchAhead(app, scimDispatch({ prefix: PREFIX, before: [edge, failing], body, path: ROUTE, handle, errors }));
  return outer(app);
}

interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

function send(
  server: Server,
  method: string,
  path: string,
  headers: Record<string, string>,
  payload?: string,
): Promise<Answer> {
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        const { date: _date, connection: _c, 'keep-alive': _k, ...rest } = res.headers;
        resolve({ status: res.statusCode!, headers: rest, body: text });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe(`SCIM dispatcher: the same answers as the express mount it replaces (DSYNC_FUZZ_SEED=${SEED})`, () => {
  let mounted: Server;
  let dispatcher: Server;
  before(async () => {
    mounted = createServer(expressMount());
    dispatcher = createServer(dispatched());
    await Promise.all([mounted, dispatcher].map((s) => new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok))));
  });
  after(async () => {
    await Promise.all([mounted, dispatcher].map((s) => new Promise((ok) => s.close(ok))));
  });

  const same = async (method: string, path: string, headers: Record<string, string> = {}, payload?: string) => {
    const [a, b] = await Promise.all([
      send(mounted, method, path, headers, payload),
      send(dispatcher, method, path, headers, payload),
    ]);
    expect(b, `${method} ${path} ${JSON.stringify(headers)}`).to.deep.equal(a);
    return b;
  };

  it('paths: spellings, trailing and doubled slashes, bad percent-encoding, paths beside and under the prefix', async () => {
    const paths = [
      ...spellings(`${PREFIX}/dir-1/Users/user-1`, 60, SEED, { ids: ['dir-1', 'user-1'] }),
      ...spellings(`${PREFIX}/dir-1/Groups`, 40, SEED + 1, { ids: ['dir-1'] }),
      `${PREFIX}/d/Users/%zz`,
      `${PREFIX}/%E0%A4%A/Users`,
      `${PREFIX}/d/Users/x/`,
      `${PREFIX}/d/Users//`,
      `${PREFIX}//d/Users`,
      `${PREFIX}/d/Users/x/y`,
      `${PREFIX}/d`,
      `${PREFIX}/`,
      PREFIX,
      '/API/SCIM/V2.0/d/users',
      '/api/scim/v2.0x/d/Users',
      '/api/scim/v2.0.%2e/d/Users',
      '/api/scim/other',
      '/elsewhere',
      `${PREFIX}/d/Users?filter=a&filter=b&count=2`,
      `http://example.test${PREFIX}/d/Users/u`,
    ];
    const statuses = new Set<number>();
    for (const path of paths) statuses.add((await same('GET', path)).status);
    // The fuzz reached the handler, the SCIM 404, the decode error and the app's own 404.
    expect([...statuses].sort()).to.include.members([200, 400, 404]);
  });

  it('methods, bodies (types, charsets, size, malformed) and failures before and inside the SCIM router', async () => {
    const path = `${PREFIX}/d/Users/u`;
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'])
      await same(method, path);
    const json = JSON.stringify({ userName: 'a' });
    for (const type of [
      'application/json',
      'application/scim+json',
      'application/vnd.x+json; charset=utf-8',
      'text/plain',
      'application/json; charset=latin1',
      'application/json; charset=koi8-r',
    ]) {
      await same('POST', path, { 'content-type': type, 'content-length': String(Buffer.byteLength(json)) }, json);
    }
    await same('POST', path, { 'content-length': String(json.length) }, json);
    await same('PUT', path, { 'content-type': 'application/json', 'content-length': '9' }, '{"a": tru');
    const big = JSON.stringify({ a: 'x'.repeat(2000) });
    await same('PUT', path, { 'content-type': 'application/json', 'content-length': String(big.length) }, big);
    await same(
      'PUT',
      path,
      { 'content-type': 'application/json', 'content-encoding': 'br', 'content-length': '2' },
      '{}',
    );
    for (const how of ['throw', 'next', 'reject', 'handler']) await same('GET', path, { 'x-fail': how });
  });
});
