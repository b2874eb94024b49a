/**
 * SCIM load benchmark, Okta-shaped: filter lookup + create, PUT, group create, member PATCHes, deactivate,
 * paged list. A real `dsync serve` process on a real redis-server, concurrency 32, a webhook receiver counting
 * the events. Prints requests/s and p50/p99 per phase, the create rate at 1,000 vs 100,000 stored users, and
 * Redis memory per stored user.
 *
 *   npx tsx test/bench/scim-load.bench.ts            # BENCH_BIG=100000 BENCH_USERS=5000 BENCH_CONCURRENCY=32
 */
import { Redis } from 'ioredis';
import {
  client,
  CountingReceiver,
  percentile,
  phase,
  printPhases,
  startDsync,
  startRedis,
  type PhaseResult,
} from './lib.js';
import { check, createUsers, oktaUser } from './okta-workload.js';

const BIG = Number(process.env.BENCH_BIG ?? 100_000);
const USERS = Number(process.env.BENCH_USERS ?? 5_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
async function usedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/used_memory:(\d+)/.exec(info)![1]);
}

async function main(): Promise<void> {
  const redisProc = await startRedis();
  const receiver = await new CountingReceiver().start();
  const dsync = await startDsync({
    REDIS_URL: redisProc.url,
    DSYNC_WEBHOOK_ALLOW_PRIVATE: 'true',
    DSYNC_EVENT_RETENTION: '0s',
  });
  const redis = new Redis(redisProc.url);
  const api = client(dsync.url, `Api-Key ${dsync.apiKey}`, 4);
  const results: PhaseResult[] = [];
  console.log(`dsync ${dsync.url} on redis ${redisProc.url}; concurrency ${CONCURRENCY}; big directory ${BIG} users`);
  try {
    const mkDir = async (name: string) => {
      const res = await api.request('POST', '/api/v1/directory-sync', {
        name,
        tenant: name,
        product: 'bench',
        type: 'okta-scim-v2',
        webhook_url: receiver.url,
      });
      check(res.status, [201], `create directory ${JSON.stringify(res.body)}`);
      return res.body.data as { id: string; scim: { secret: string; path: string } };
    };
    // Warm-up (JIT, connection pools) on a directory of its own; not reported.
    const warm = await mkDir('warmup');
    const warmScim = client(dsync.url, `Bearer ${warm.scim.secret}`, CONCURRENCY);
    await phase('warm-up', 3000, CONCURRENCY, createUsers(warmScim, warm.scim.path, 'w', 0));
    await warmScim.close();
    const small = await mkDir('small');
    const big = await mkDir('big');
    const smallScim = client(dsync.url, `Bearer ${small.scim.secret}`, CONCURRENCY);
    const bigScim = client(dsync.url, `Bearer ${big.scim.secret}`, CONCURRENCY);

    // Small directory: 1,000 users, then the measured create phase.
    await phase('prefill small', 1000, CONCURRENCY, createUsers(smallScim, small.scim.path, 's', 0));
    // Each measured create phase starts with the delivery backlog drained, so both compete with the same work.
    await receiver.waitFor(3000 + 1000, 300_000);
    const atSmall = await phase(
      `user create (lookup+POST) at 1k users`,
      USERS,
      CONCURRENCY,
      createUsers(smallScim, small.scim.path, 's', 1000),
    );
    results.push(atSmall);

    // Big directory: prefill through the same HTTP path, measure memory, then the measured create phase.
    // The baseline is taken once everything so far is delivered and trimmed from the log.
    await receiver.waitFor(3000 + 1000 + USERS, 300_000);
    await new Promise((r) => setTimeout(r, 1500));
    const memBefore = await usedMemory(redis);
    const prefill = await phase(
      `prefill big (${BIG} users via HTTP)`,
      BIG,
      CONCURRENCY,
      createUsers(bigScim, big.scim.path, 'b', 0),
    );
    results.push(prefill);
    await receiver.waitFor(3000 + 1000 + USERS + BIG, 300_000);
    await new Promise((r) => setTimeout(r, 1500)); // let the deliverer trim the log
    const memAfter = await usedMemory(redis);
    const streamLen = await redis.xlen(`dsync:{${big.id}}:ev`);
    await receiver.waitFor(3000 + 1000 + USERS + BIG, 300_000);
    const atBig = await phase(
      `user create (lookup+POST) at ${BIG / 1000}k users`,
      USERS,
      CONCURRENCY,
      createUsers(bigScim, big.scim.path, 'b', BIG),
    );
    results.push(atBig);

    // The rest of the Okta workload on the big directory.
    const ids = (await redis.zrange(`dsync:{${big.id}}:uo`, 0, 4999)) as string[];
    results.push(
      await phase('PUT user', 2000, CONCURRENCY, async (i, timed) => {
        // Creation ran concurrently, so the i-th id is not user i: PUT the user's own identity back (untimed read).
        const current = await bigScim.request('GET', `${big.scim.path}/Users/${ids[i]}`);
        const n = Number(/user(\d+)@/.exec((current.body as { userName: string }).userName)?.[1]);
        const res = await timed(() =>
          bigScim.request('PUT', `${big.scim.path}/Users/${ids[i]}`, {
            ...oktaUser('b', n),
            displayName: `Renamed ${n}`,
          }),
        );
        check(res.status, [200], 'PUT');
      }),
    );
    const groups: string[] = [];
    results.push(
      await phase('group create', 200, CONCURRENCY, async (i, timed) => {
        const res = await timed(() =>
          bigScim.request('POST', `${big.scim.path}/Groups`, {
            schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
            displayName: `Group ${i}`,
            members: [],
          }),
        );
        check(res.status, [201], 'group create');
        groups.push(res.body.id);
      }),
    );
    results.push(
      await phase('member PATCH (add)', 5000, CONCURRENCY, async (i, timed) => {
        const res = await timed(() =>
          bigScim.request('PATCH', `${big.scim.path}/Groups/${groups[i % groups.length]}`, {
            schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
            Operations: [{ op: 'add', path: 'members', value: [{ value: ids[i] }] }],
          }),
        );
        check(res.status, [204], 'member add');
      }),
    );
    results.push(
      await phase('member PATCH (remove by filter)', 1000, CONCURRENCY, async (i, timed) => {
        const res = await timed(() =>
          bigScim.request('PATCH', `${big.scim.path}/Groups/${groups[i % groups.length]}`, {
            schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
            Operations: [{ op: 'remove', path: `members[value eq "${ids[i]}"]` }],
          }),
        );
        check(res.status, [204], 'member remove');
      }),
    );
    results.push(
      await phase('deactivate (PATCH active=false)', 2000, CONCURRENCY, async (i, timed) => {
        const res = await timed(() =>
          bigScim.request('PATCH', `${big.scim.path}/Users/${ids[2000 + i]}`, {
            schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
            Operations: [{ op: 'replace', value: { active: false } }],
          }),
        );
        check(res.status, [200], 'deactivate');
      }),
    );
    const pagedList = async (i: number, timed: <T>(fn: () => Promise<T>) => Promise<T>) => {
      const start = 1 + ((i * 7919) % (BIG - 100));
      const res = await timed(() => bigScim.request('GET', `${big.scim.path}/Users?startIndex=${start}&count=100`));
      check(res.status, [200], 'list');
      if (res.body.Resources.length !== 100) throw new Error('short page');
    };
    // Measured once the delivery backlog is drained, so the list competes only with itself.
    await receiver.waitFor(3000 + 1000 + USERS * 2 + BIG + 2000 + 200 + 5000 + 1000 + 2000, 300_000);
    results.push(await phase(`paged list (count=100) at ${BIG / 1000}k users, 1 client`, 500, 1, pagedList));
    results.push(await phase(`paged list (count=100) at ${BIG / 1000}k users`, 1000, CONCURRENCY, pagedList));

    const expected = 3000 + 1000 + USERS * 2 + BIG + 2000 + 200 + 5000 + 1000 + 2000;
    await receiver.waitFor(expected, 300_000);
    printPhases(results);
    const lags = [...receiver.lags].sort((a, b) => a - b);
    const usersStored = BIG;
    console.log(
      `\ncreate rate at 1k vs ${BIG / 1000}k users: ${Math.round(atSmall.rps)} vs ${Math.round(atBig.rps)} req/s (${((atBig.rps / atSmall.rps - 1) * 100).toFixed(1)}%)`,
    );
    console.log(
      `redis memory per stored user (users, indexes; delivered events trimmed, ${streamLen} left in the log): ${((memAfter - memBefore) / usersStored).toFixed(0)} bytes`,
    );
    console.log(
      `webhook events received: ${receiver.events} in ${receiver.posts} POSTs (expected ${expected}); lag p50 ${percentile(lags, 50)} ms, p99 ${percentile(lags, 99)} ms`,
    );
    await smallScim.close();
    await bigScim.close();
  } finally {
    await api.close();
    redis.disconnect();
    await dsync.stop();
    await receiver.stop();
    await redisProc.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
