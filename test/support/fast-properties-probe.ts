/**
 * Run by test/unit/http/express-types.test.ts as `node --allow-natives-syntax --import tsx <this file>`: serves one
 * request through express-types' classes and an express app (a header, `res.locals`, a `finish` listener, a JSON
 * answer, as dsync's steps do), and prints whether V8 kept the request and the response in fast mode
 * (`%HasFastProperties`) when express handed them over and after the handler. One line of JSON on stdout.
 */
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { expressTypes } from '../../src/http/server/express-types.js';

// Natives syntax parses only in code compiled at run time with the flag on.
const fast = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean;

const types = expressTypes();
const app = express();
const server = createServer(types.options, app);
types.adopt(app);
const seen: Record<string, boolean> = {};
app.put('/probe', (req, res) => {
  Object.assign(seen, { requestOnArrival: fast(req), responseOnArrival: fast(res) });
  res.setHeader('X-Request-Id', 'probe');
  res.locals.requestId = 'probe';
  res.once('finish', () => undefined);
  res.status(200).json({ ok: true });
  Object.assign(seen, { requestAfter: fast(req), responseAfter: fast(res) });
});
server.listen(0, '127.0.0.1');
await once(server, 'listening');
const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/probe`, {
  method: 'PUT',
  body: '{}',
});
await answer.text();
server.close();
console.log(JSON.stringify({ status: answer.status, ...seen }));
