/**
 * Request and response classes for node's HTTP server whose objects are born with the prototypes express gives
 * them: express's `app.handle` moves every request and response onto its own prototypes with
 * `Object.setPrototypeOf`, and an object whose prototype changes after it was built leaves V8's fast paths for
 * every later property access; born with the app's prototypes, that call changes nothing. They are subclasses of
 * node's, so V8 keeps them in fast mode too (test/unit/http/express-types.test.ts checks it). Figures and their
 * commands: docs/design/performance.md. Works on `http` and `https` servers alike (both take these two options).
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
  // Subclasses of node's own, whose prototypes then become the app's (`adopt`): V8 sizes a subclass's objects
  // from the constructors of its chain, as it sizes node's, so they keep fast properties. Plain wrapper functions
  // (`Reflect.apply(ServerResponse, this, args)`) made every response a dictionary-mode object: sized for none,
  // it took node's many fields out of line and went to dictionary mode at its first symbol-keyed one.
  class Request extends IncomingMessage {}
  class Response extends ServerResponse {}
  Object.setPrototypeOf(Request.prototype, express.request);
  Object.setPrototypeOf(Response.prototype, express.response);
  const request = Request.prototype;
  const response = Response.prototype;
  return {
    options: { IncomingMessage: Request, ServerResponse: Response as typeof ServerResponse },
    adopt(app) {
      for (const proto of [request, response])
        Object.defineProperty(proto, 'app', { configurable: true, enumerable: true, writable: true, value: app });
      Object.assign(app, { request, response });
    },
  };
}
