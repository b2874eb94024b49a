/**
 * What serving SCIM off express's router saves per request: the same stub SCIM endpoint (real body parsing, no-op
 * steps, a JSON answer) behind the express mount, behind the dispatcher (mounted first, or ahead of express's
 * router as dsync serves SCIM), each also with the server's request and response born with express's prototypes
 * (`+types`, src/http/server/express-types.ts, as dsync serve runs), and on node:http with no express at all
 * (scim-dispatch-server.ts), driven in alternating rounds by one generator (PUTs of an Okta-sized user, concurrency
 * 32). Prints each server's req/s and its CPU µs per request (process.cpuUsage, so less sensitive to a busy
 * machine).
 *
 *   npx tsx test/bench/scim-dispatch.bench.ts      # BENCH_REQUESTS (20000 a round), BENCH_ROUNDS (4)
 *   BENCH_KINDS=dispatch+types,ahead+types,node npx tsx test/bench/scim-dispatch.bench.ts   # some servers only
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { client } from './lib.js';
import { oktaUser } from './okta-workload.js';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const CONCURRENCY = 32;

async function start(kind: string) {
  const child = fork(fileURLToPath(new URL('./scim-dispatch-server.ts', import.meta.url)), [kind], {
    execArgv: ['--import', 'tsx'],
  });
  const { port } = (await once(child, 'message'))[0] as { port: number };
  const cpu = async () => {
    const answer = once(child, 'message');
    child.send({ cpu: true });
    return ((await answer)[0] as { cpuUs: number }).cpuUs;
  };
  return { kind, child, cpu, http: client(`http://127.0.0.1:${port}`, 'Bearer x', CONCURRENCY) };
}

async function main(): Promise<void> {
  const kinds = (process.env.BENCH_KINDS ?? 'mount,dispatch,mount+types,dispatch+types,ahead+types,node').split(',');
  const servers = [];
  for (const kind of kinds) servers.push(await start(kind));
  const user = oktaUser('bench', 1);
  const results = new Map<string, Array<{ rps: number; cpuUs: number }>>();
  try {
    for (let round = 0; round <= ROUNDS; round++) {
      for (const s of round % 2 ? [...servers].reverse() : servers) {
        let next = 0;
        const cpu0 = await s.cpu();
        const t0 = performance.now();
        await Promise.all(
          Array.from({ length: CONCURRENCY }, async () => {
            while (next < REQUESTS) {
              const i = next++;
              const res = await s.http.request('PUT', `/api/scim/v2.0/dir-1/Users/user-${i}`, user);
              if (res.status !== 200) throw new Error(`${s.kind}: ${res.status}`);
            }
          }),
        );
        const seconds = (performance.now() - t0) / 1000;
        const cpuUs = (await s.cpu()) - cpu0;
        // Round 0 warms both up.
        if (round > 0)
          results.set(s.kind, [...(results.get(s.kind) ?? []), { rps: REQUESTS / seconds, cpuUs: cpuUs / REQUESTS }]);
      }
    }
  } finally {
    for (const s of servers) {
      await s.http.close();
      s.child.disconnect();
    }
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(
    `PUT of an Okta user, concurrency ${CONCURRENCY}, ${REQUESTS} requests a round, median of ${ROUNDS} rounds\n`,
  );
  console.log('| server | req/s | CPU µs / req (server) |\n|---|---:|---:|');
  for (const [kind, rs] of results)
    console.log(
      `| ${kind} | ${Math.round(median(rs.map((r) => r.rps)))} | ${Math.round(median(rs.map((r) => r.cpuUs)))} |`,
    );
}

await main();
