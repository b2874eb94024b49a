/**
 * The HRIS syncs at scale, per provider, against its fake (its own process) and a real redis-server: a company of
 * 10,000 employees in 200 departments — the first sync, a re-sync with no change, a re-sync after 1% of changes.
 * Prints durations, events, the provider requests of each run and the peak RSS of the syncing process. Each
 * provider runs in a process of its own, so each peak RSS is its own.
 *
 *   npx tsx test/bench/hris-sync.bench.ts          # BENCH_EMPLOYEES=10000 BENCH_DEPARTMENTS=200 BENCH_PROVIDERS=bamboohr,hibob,personio
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createDsync } from '../../src/service.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { countEvents } from '../support/big-group.js';
import type { HrType } from '../support/hr-fakes.js';
import { forkHelper, startRedis } from './lib.js';

const EMPLOYEES = Number(process.env.BENCH_EMPLOYEES ?? 10_000);
const DEPARTMENTS = Number(process.env.BENCH_DEPARTMENTS ?? 200);
const one = process.env.BENCH_PROVIDER as HrType | undefined;

if (!one) {
  // One process per provider: each peak RSS is that provider's sync alone.
  for (const type of (process.env.BENCH_PROVIDERS ?? 'bamboohr,hibob,personio').split(',')) {
    const child = fork(fileURLToPath(import.meta.url), [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, BENCH_PROVIDER: type },
    });
    const [code] = await once(child, 'exit');
    if (code !== 0) throw new Error(`${type}: exit ${code}`);
  }
} else {
  const { child, ask } = await forkHelper(new URL('./hris-fake-process.ts', import.meta.url));
  const redis = await startRedis();
  const store = new RedisStore(redis.url, { commandTimeout: 30_000 });
  try {
    const t0 = performance.now();
    const { url, credentials } = await ask<{ url: string; credentials: Record<string, string> }>({
      cmd: 'seed',
      type: one,
      employees: EMPLOYEES,
      departments: DEPARTMENTS,
    });
    console.log(
      `${one}: fake seeded with ${EMPLOYEES} employees in ${DEPARTMENTS} departments in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    const dsync = createDsync({
      store,
      externalUrl: 'http://localhost',
      hris: { apiUrls: { bamboohr: url, hibob: url, personio: url }, webhookDelayMs: 3_600_000 },
    });
    const dir = await dsync.directories.create({ name: 'Bench', tenant: 'bench', product: 'app', type: one });
    await dsync.hris.setCredentials(dir.id, credentials);
    let cursor: string | null = null;
    let calls = await ask<number>({ cmd: 'calls', type: one });
    const phase = async (what: string) => {
      const started = performance.now();
      const report = await dsync.hris.sync({ directoryId: dir.id });
      const seconds = (performance.now() - started) / 1000;
      const { counts, last } = await countEvents(store, dir.id, cursor);
      cursor = last;
      const total = await ask<number>({ cmd: 'calls', type: one });
      const events = Object.values(counts).reduce((a, b) => a + b, 0);
      const d = report.directories[0]!;
      const status = await dsync.hris.syncStatus(dir.id);
      console.log(
        `${one.padEnd(9)} ${what.padEnd(20)} ${seconds.toFixed(1).padStart(6)} s  ${String(status.mode).padEnd(13)} state ${d.state}  events ${String(events).padStart(6)}  ` +
          `provider requests ${String(total - calls).padStart(5)}  peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
      );
      calls = total;
      if (d.state !== 'succeeded') throw new Error(`${what}: ${JSON.stringify(d.error)}`);
    };
    await phase('first sync');
    await phase('no-change re-sync');
    const changes = await ask<Record<string, number>>({ cmd: 'change', type: one, share: 0.01 });
    console.log(`${one.padEnd(9)} 1% changes: ${JSON.stringify(changes)}`);
    await phase('re-sync after 1%');
    await dsync.close();
  } finally {
    child.kill();
    await redis.stop();
  }
}
