/**
 * One Redis server's client writes the commands of one event-loop turn in one syscall
 * (src/store/redis/coalesced-writes.ts),
 * on every connection it makes, a big command at once, and each command still gets its own reply.
 */
import { expect } from 'chai';
import type { Socket } from 'node:net';
import type { Redis } from 'ioredis';
import { FLUSH_AT_BYTES } from '../../src/store/redis/coalesced-writes.js';
import { createRedisClient } from '../../src/store/redis/client.js';
import { redisUrl } from '../support/services.js';
import { until } from '../support/harness.js';

/** Counts the socket's writes to the kernel: `_writev` for a corked batch, `_write` for a lone chunk. */
function countWrites(socket: Socket): { syscalls: number } {
  const counts = { syscalls: 0 };
  const s = socket as Socket & { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };
  for (const name of ['_write', '_writev'] as const) {
    const original = s[name];
    s[name] = function (this: Socket, ...args: unknown[]) {
      counts.syscalls++;
      return original.apply(this, args);
    };
  }
  return counts;
}

async function hundredCommandsInOneTurn(client: Redis): Promise<number> {
  const counts = countWrites(client.stream as Socket);
  const replies = await Promise.all(Array.from({ length: 100 }, (_, i) => client.set(`coalesce:${i}`, String(i))));
  expect(replies).to.deep.equal(Array(100).fill('OK'));
  const values = await Promise.all(Array.from({ length: 100 }, (_, i) => client.get(`coalesce:${i}`)));
  expect(values).to.deep.equal(Array.from({ length: 100 }, (_, i) => String(i)));
  return counts.syscalls;
}

describe('coalesced Redis writes (one server)', () => {
  let client: Redis;
  beforeEach(async () => {
    client = createRedisClient(`${redisUrl()}/12`) as Redis;
    await client.ping();
  });
  afterEach(() => client.disconnect());

  it('writes 100 commands sent in one turn in one syscall, and the 100 that follow their replies in another', async () => {
    expect(await hundredCommandsInOneTurn(client)).to.equal(2);
  });

  it('does so on the connection it makes after a reconnect too', async () => {
    const first = client.stream;
    client.stream.destroy(); // a dropped connection: ioredis connects again by itself
    await until(async () => client.status === 'ready' && client.stream !== first, 'the client to reconnect', 10_000);
    expect(await hundredCommandsInOneTurn(client)).to.equal(2);
  });

  it('holds a small command until the turn ends, and sends a big one at once with what is queued', async () => {
    const small = client.set('coalesce:small', 'x');
    expect(client.stream.writableLength, 'held in the corked socket').to.be.above(0);
    const big = client.set('coalesce:big', 'y'.repeat(FLUSH_AT_BYTES));
    expect(client.stream.writableLength, 'handed to the kernel').to.equal(0);
    expect(await Promise.all([small, big])).to.deep.equal(['OK', 'OK']);
    expect(await client.strlen('coalesce:big')).to.equal(FLUSH_AT_BYTES);
  });

  it('writes a command sent later in its own turn without waiting for more', async () => {
    const started = Date.now();
    for (let i = 0; i < 5; i++) expect(await client.ping()).to.equal('PONG');
    expect(Date.now() - started).to.be.below(500);
  });
});
