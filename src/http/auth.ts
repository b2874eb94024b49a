/** `Authorization: Api-Key <key>` for the management API and the cron routes. */
import type { RequestHandler } from 'express';
import { challenge } from '../core/auth-challenge.js';
import { sameSecret } from '../core/secrets.js';
import { fail } from './envelope.js';

export function apiKeyAuth(keys: string[]): RequestHandler {
  return (req, res, next) => {
    const header = req.get('authorization') ?? '';
    const match = /^Api-Key\s+(\S+)\s*$/i.exec(header);
    if (!match) {
      res.setHeader('WWW-Authenticate', challenge('Api-Key', header !== ''));
      return fail(res, 401, 'Missing Authorization: Api-Key <key> header');
    }
    // Compare against every key so timing does not tell which one (or whether any) matched.
    let valid = false;
    for (const key of keys) valid = sameSecret(match[1]!, key) || valid;
    if (!valid) {
      res.setHeader('WWW-Authenticate', challenge('Api-Key', true));
      return fail(res, 401, 'Invalid API key');
    }
    next();
  };
}
