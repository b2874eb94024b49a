/** One pino logger for the process; units of work log through `child(...)`. Secrets are redacted. */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(level = 'info'): Logger {
  return pino({
    level,
    base: { service: 'dsync' },
    redact: {
      paths: [
        'req.headers.authorization',
        '*.secret',
        '*.webhook_secret',
        '*.scim.secret',
        '*.webhook.secret',
        '*.token',
        '*.google_access_token',
        '*.google_refresh_token',
      ],
      censor: '[redacted]',
    },
  });
}
