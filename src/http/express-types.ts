/**
 * Request and response classes for node's HTTP server whose objects are born with the prototypes express gives
 * them. express's `app.handle` moves every request and response onto its own prototypes with
 * `Object.setPrototypeOf`; an object whose prototype changes after it was built leaves V8's fast paths, and
 * node's HTTP internals, express and every middleware then pay for it on each property access. Measured on a
 * stub SCIM endpoint (test/bench/scim-dispatch.bench.ts, the `+types` servers): 312 → 176 µs of CPU per request
 * behind express's router, 282 → 135 µs behind the SCIM dispatcher. Born with the app's prototypes,
 * `setPrototypeOf` finds the same prototype and changes nothing. Works on `http` and `https` servers alike (both take these two options).
 */
import { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express } from 'express';

export interface ExpressTypes {
  /** The server options (`http.createServer(options, app)`, `https.createServer({ ...tls, ...options })`). */
  options: { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse };
  /** Makes these the app's prototypes (as express makes its own: the base request/response with `app` on top). */
  adopt(app: Express): void;
}

/**
 * A pair for one server and the one app it serves: create the server with them, then `adopt(app)` before it
 * takes a request (the app may be built after the server listens, as tests do).
 */
export function expressTypes(): ExpressTypes {
  const request = Object.create(express.request) as object;
  const response = Object.create(express.response) as object;
  // Plain functions, not subclasses: a subclass's objects would have the subclass's prototype, not the app's.
  // node calls them with `new` and its own arguments, passed on whole.
  const Request = function (this: IncomingMessage, ...args: unknown[]) {
    Reflect.apply(IncomingMessage, this, args);
  } as unknown as typeof IncomingMessage;
  Request.prototype = request as IncomingMessage;
  const Response = function (this: ServerResponse, ...args: unknown[]) {
    Reflect.apply(ServerResponse, this, args);
  } as unknown as typeof ServerResponse;
  Response.prototype = response as ServerResponse<IncomingMessage>;
  return {
    options: { IncomingMessage: Request, ServerResponse: Response },
    adopt(app) {
      for (const proto of [request, response]) Object.defineProperty(proto, 'app', { configurable: true, enumerable: true, writable: true, value: app });
      Object.assign(app, { request, response });
    },
  };
}
