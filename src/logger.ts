/** One pino logger for the process; units of work log through `child(...)`. Secrets are redacted. */
import { pino, type DestinationStream, type Logger } from 'pino';

export type { Logger };

type Serialized = Record<string, unknown> & { command?: { name?: unknown }; cause?: unknown };

/**
 * pino's error serializer, minus the arguments ioredis attaches to a failed command (`err.command.args`): they
 * hold whole records — directory JSON with its secrets, users' personal data — that no redact path can reach
 * inside a string. The command's name stays for diagnosis; causes are cleaned the same way.
 */
export function serializeError(err: unknown): unknown {
  const out = pino.stdSerializers.err(err as Error) as Serialized;
  if (out && typeof out === 'object') {
    if (out.command && typeof out.command === 'object') out.command = { name: out.command.name };
    if (out.cause && typeof out.cause === 'object') out.cause = serializeError(out.cause);
  }
  return out;
}

export function createLogger(level = 'info', destination?: DestinationStream): Logger {
  const options = {
    level,
    base: { service: 'dsync' },
    serializers: { err: serializeError },
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
  };
  return destination ? pino(options, destination) : pino(options);
}
