import { expect } from 'chai';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { createLogger } from '../../../src/logger.js';
import { redisUrl } from '../../support/services.js';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { lines, logger: createLogger('info', stream) };
}

describe('logger', () => {
  it('never writes the arguments of a failed Redis command (they hold secrets), only its name', async () => {
    const redis = new Redis(`${redisUrl()}/11`);
    const { lines, logger } = capture();
    try {
      // A real ioredis error: a SET whose args carry a secret, refused by Redis (wrong type).
      await redis.del('logger-test');
      await redis.lpush('logger-test', 'x');
      const secret = 'scim-token-do-not-log-1234';
      const err = await redis
        .set('logger-test', JSON.stringify({ scim: { secret } }), 'XX', 'GET')
        .catch((e: Error) => e);
      expect(err).to.be.instanceOf(Error);
      logger.warn({ err, directory: { scim: { secret } } }, 'store write failed');
      logger.error({ err: new Error('outer', { cause: err }) }, 'wrapped');
      const text = lines.join('');
      expect(text).to.not.include(secret);
      expect(text).to.include('"command":{"name":"set"}');
      expect(text).to.include('WRONGTYPE');
    } finally {
      await redis.del('logger-test');
      redis.disconnect();
    }
  });
});
