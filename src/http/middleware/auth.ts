/**
 * `Authorization: Api-Key <key>` for the management API and the cron routes. A wrong key counts as a failed
 * authentication (ratelimit/auth-failures.ts; its gate, mounted before this, refuses a blocked client before any
 * compare); keys are compared in constant time and never logged. The matching key's scope (api-keys.ts) goes to
 * `res.locals.apiKey` for the route table to enforce.
 */
import type { RequestHandler } from 'express';
import { challenge } from '../../core/auth-challenge.js';
import { sameSecret } from '../../core/secrets.js';
import { API_REALM, attempt, type AuthFailures } from '../../ratelimit/auth-failures.js';
import type { ApiKey, KeyScope } from './api-keys.js';
import { fail } from './envelope.js';
import { admit } from './request-metrics.js';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      /** The scope of the request's API key (set once the key is known). */
      apiKey?: KeyScope;
    }
  }
}

export function apiKeyAuth(keys: readonly ApiKey[], failures: AuthFailures): RequestHandler {
  return async (req, res, next) => {
    const header = req.get('authorization') ?? '';
    const match = /^Api-Key\s+(\S+)\s*$/i.exec(header);
    if (!match) {
      res.setHeader('WWW-Authenticate', challenge('Api-Key', header !== ''));
      return fail(res, 401, 'Missing Authorization: Api-Key <key> header');
    }
    // Compare against every key so timing does not tell which one (or whether any) matched.
    let found: ApiKey | undefined;
    for (const k of keys) if (sameSecret(match[1]!, k.key)) found ??= k;
    if (!found) {
      await failures.failed(attempt(req, API_REALM));
      res.setHeader('WWW-Authenticate', challenge('Api-Key', true));
      return fail(res, 401, 'Invalid API key');
    }
    res.locals.apiKey = found.scope;
    admit(res);
    next();
  };
}
