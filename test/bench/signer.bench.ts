/**
 * What a webhook signature costs: dsync's signer (node:crypto HMAC, src/delivery/signer.ts) against the
 * `standardwebhooks` package's `sign` (a pure-JS SHA-256), over a `user.created` event of an Okta-shaped user and
 * over a batch of 100 such events. Why delivery signs with node:crypto (docs/design/performance.md, "The signature").
 *
 *   npx tsx test/bench/signer.bench.ts
 *
 * Knobs: BENCH_CALLS (20,000 single events per signer and round; a hundredth of that for batches), BENCH_ROUNDS (5).
 */
import { Webhook } from 'standardwebhooks';
import { sign } from '../../src/delivery/signer.js';
import { oktaUser } from './okta-workload.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const event = (i: number) => ({
  id: `evt_${i}`,
  event: 'user.created',
  created_at: new Date(0).toISOString(),
  data: oktaUser('bench', i),
});
const single = JSON.stringify(event(1));
const batch = JSON.stringify({ events: Array.from({ length: 100 }, (_, i) => event(i)) });
const pkg = new Webhook(SECRET);
const at = new Date();

const SIGNERS: Array<[name: string, run: (body: string) => string]> = [
  ['node:crypto (dsync)', (body) => sign(SECRET, 'evt_1', body, at)['webhook-signature']],
  ['standardwebhooks', (body) => pkg.sign('evt_1', at, body)],
];

/** µs per signature of `body`, median of the rounds. */
function time(run: (body: string) => string, body: string, calls: number): number {
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) run(body);
    rounds.push(Number(process.hrtime.bigint() - started) / 1000 / calls);
  }
  return rounds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]!;
}

console.log(`node ${process.version}; µs per signature, median of ${ROUNDS} rounds`);
console.log(
  '| signer | one event (%d bytes) | batch of 100 (%d bytes) |',
  Buffer.byteLength(single),
  Buffer.byteLength(batch),
);
console.log('|---|---:|---:|');
for (const [name, run] of SIGNERS) {
  time(run, single, 1_000); // warm-up
  console.log(
    `| ${name} | ${time(run, single, CALLS).toFixed(1)} | ${time(run, batch, Math.max(1, CALLS / 100)).toFixed(0)} |`,
  );
}
