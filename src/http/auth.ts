/** `Authorization: Api-Key <key>` for the management API and the cron routes. */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { challenge } from '../core/auth-challenge.js';
import { fail } from './envelope.js';

const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

export function apiKeyAuth(keys: string[]): RequestHandler {
  const digests = keys.map(digest);
  return (req, res, next) => {
    const header = req.get('authorization') ?? '';
    const match = /^Api-Key\s+(\S+)\s*$/i.exec(header);
    if (!match) {
      res.setHeader('WWW-Authenticate', challenge('Api-Key', header !== ''));
      return fail(res, 401, 'Missing Authorization: Api-Key <key> header');
    }
    const presented = digest(match[1]!);
    // Compare against every key so timing does not tell which one (or whether any) matched.
    let valid = false;
    for (const d of digests) valid = timingSafeEqual(d, presented) || valid;
    if (!valid) {
      res.setHeader('WWW-Authenticate', challenge('Api-Key', true));
      return fail(res, 401, 'Invalid API key');
    }
    next();
  };
}
