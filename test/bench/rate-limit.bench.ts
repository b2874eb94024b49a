/**
 * The cost of rate limiting on the SCIM create path: two `dsync serve` processes on one redis-server, one with
 * limits off and one with limits on (Enterprise with a generous scim override, so nothing trips and every
 * request pays for both windows' counters), driven by the Okta create workload (lookup + POST) in alternating
 * rounds so both see the same machine. Prints both rates and their ratio; the issue's bar is within 10%.
 *
 *   npx tsx test/bench/rate-limit.bench.ts          # BENCH_USERS=2000 per round, BENCH_ROUNDS=3, BENCH_CONCURRENCY=32
 */
import { client, phase, startDsync, startRedis, type PhaseResult } from './lib.js';
import { check, createUsers } from './okta-workload.js';

const USERS = Number(process.env.BENCH_USERS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const LIMITS_ON = { DSYNC_RATE_LIMIT_PLAN: 'enterprise', DSYNC_RATE_LIMIT_OVERRIDES: 'scim=100000/1000000' };

async function main(): Promise<void> {
  const redis = await startRedis();
  const common = { REDIS_URL: redis.url, DSYNC_EVENT_RETENTION: '0s' };
  const services = { off: await startDsync(common), on: await startDsync({ ...common, ...LIMITS_ON }) };
  const closers: Array<() => Promise<void>> = [];
  try {
    const runners = await Promise.all(
      (['off', 'on'] as const).map(async (mode) => {
        const dsync = services[mode];
        const api = client(dsync.url, `Api-Key ${dsync.apiKey}`, 2);
        closers.push(() => api.close());
        const res = await api.request('POST', '/api/v1/directory-sync', {
          name: mode,
          tenant: mode,
          product: 'bench',
          type: 'okta-scim-v2',
        });
        check(res.status, [201], `create directory ${JSON.stringify(res.body)}`);
        const dir = res.body.data as { scim: { secret: string; path: string } };
        const scim = client(dsync.url, `Bearer ${dir.scim.secret}`, CONCURRENCY);
        closers.push(() => scim.close());
        let next = 0;
        return {
          mode,
          run: (name: string, n: number) =>
            phase(name, n, CONCURRENCY, createUsers(scim, dir.scim.path, mode, (next += n) - n)),
        };
      }),
    );
    for (const r of runners) await r.run(`warm-up ${r.mode}`, 500);
    const totals = { off: { requests: 0, seconds: 0 }, on: { requests: 0, seconds: 0 } };
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternate which goes first, so neither always runs on the warmer (or busier) machine.
      for (const r of round % 2 ? runners : [...runners].reverse()) {
        const result: PhaseResult = await r.run(`round ${round} limits ${r.mode}`, USERS);
        totals[r.mode].requests += result.requests;
        totals[r.mode].seconds += result.seconds;
        console.log(
          `round ${round} limits ${r.mode.padEnd(3)}: ${Math.round(result.rps)} req/s, p50 ${result.p50.toFixed(2)} ms, p99 ${result.p99.toFixed(2)} ms`,
        );
      }
    }
    const rate = (m: 'off' | 'on') => totals[m].requests / totals[m].seconds;
    console.log(`\nSCIM create (lookup+POST), concurrency ${CONCURRENCY}, ${ROUNDS} × ${USERS} users each:`);
    console.log(`  limits off: ${Math.round(rate('off'))} req/s`);
    console.log(
      `  limits on : ${Math.round(rate('on'))} req/s (enterprise, scim=100000/1000000: burst and sustained counters in Redis)`,
    );
    console.log(`  on/off    : ${((rate('on') / rate('off')) * 100).toFixed(1)}%`);
  } finally {
    for (const close of closers) await close();
    await services.off.stop();
    await services.on.stop();
    await redis.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
