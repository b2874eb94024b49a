/**
 * Process-level delivery faults: real `dsync serve` / `dsync cron process-events` processes (spawned as users
 * run them) on the test Redis, a receiver that verifies every Standard Webhooks signature, and faults injected
 * from outside: SIGKILL mid-delivery, two replicas at once, concurrent batch runners, a receiver that refuses
 * connections, answers 500 or answers too late.
 *
 * The truth every test compares with is the directory's own event log (the Redis stream `dsync:{<id>}:ev`):
 * the first delivery of each event must follow it exactly (all events, in order per directory), and a repeat
 * is allowed only as a re-send under the same `webhook-id`.
 *
 * Redis logical databases 10–13 belong to this file (10: crash, 11: replicas, 12: batch, 13: receiver faults).
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { freePort } from '../bench/lib.js';
import { mapLimit } from '../../src/delivery/engine.js';
import { sleep, startReceiver, until, type Receiver } from '../support/harness.js';
import { redisUrl } from '../support/services.js';

const API_KEY = 'faults-api-key';
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
/** 12 retries over ≈8.5 s: a fault shorter than that must lose nothing. */
const RETRY_SCHEDULE = '50ms,100ms,200ms,400ms,800ms,1s,1s,1s,1s,1s,1s,1s';
const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';


// ---- dsync processes ----------------------------------------------------------------------------------

interface DsyncProc {
  name: string;
  url: string;
  child: ChildProcess;
  output: string[];
}

const live = new Set<DsyncProc>();

function envFor(db: number, extra: Record<string, string> = {}): Record<string, string> {
  return {
    REDIS_URL: `${redisUrl()}/${db}`,
    DSYNC_API_KEYS: API_KEY,
    DSYNC_WEBHOOK_ALLOW_PRIVATE: 'true',
    DSYNC_WEBHOOK_RETRY_SCHEDULE: RETRY_SCHEDULE,
    METRICS_PORT: '0',
    LOG_LEVEL: 'warn',
    ...extra,
  };
}

function spawnDsync(name: string, args: string[], env: Record<string, string>): DsyncProc {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const proc: DsyncProc = { name, url: '', child, output: [] };
  // Always drain both pipes (a full pipe would block the child); keep a tail for failure reports.
  const keep = (chunk: Buffer) => {
    proc.output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (proc.output.length > 400) proc.output.splice(0, proc.output.length - 400);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  live.add(proc);
  child.once('exit', () => live.delete(proc));
  return proc;
}

/** `dsync serve` on a free port; resolves once /readyz answers. */
async function serve(name: string, env: Record<string, string>): Promise<DsyncProc> {
  const port = await freePort();
  const proc = spawnDsync(name, ['serve'], { ...env, PORT: String(port), HOST: '127.0.0.1' });
  proc.url = `http://127.0.0.1:${port}`;
  await until(
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`${name} exited early:\n${proc.output.join('\n')}`);
      return (await fetch(`${proc.url}/readyz`).catch(() => undefined))?.ok === true;
    },
    () => `${name} to be ready`,
    20_000,
  );
  return proc;
}

/** `dsync cron process-events`: resolves with its exit code and the stats it logged (LOG_LEVEL=info). */
async function cronRun(name: string, env: Record<string, string>): Promise<{ code: number | null; delivered: number; output: string[] }> {
  const proc = spawnDsync(name, ['cron', 'process-events'], { ...env, LOG_LEVEL: 'info' });
  const [code] = (await once(proc.child, 'exit')) as [number | null];
  const line = proc.output.find((l) => l.includes('processed queued events'));
  const delivered = line ? Number((JSON.parse(line) as { delivered: number }).delivered) : NaN;
  return { code, delivered, output: proc.output };
}

async function kill(proc: DsyncProc, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (proc.child.exitCode !== null || proc.child.signalCode !== null) return;
  const exited = once(proc.child, 'exit');
  proc.child.kill(signal);
  await exited;
}

async function killAll(): Promise<void> {
  await Promise.all([...live].map((p) => kill(p)));
}

function dumpOutputs(procs: Iterable<DsyncProc>): void {
  for (const p of procs) {
    if (p.output.length) process.stderr.write(`\n--- last output of ${p.name} ---\n${p.output.slice(-15).join('\n')}\n`);
  }
}

interface Dir {
  id: string;
}

async function api(proc: DsyncProc, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${proc.url}${path}`, {
    method,
    headers: { authorization: `Api-Key ${API_KEY}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const scimSecrets = new Map<string, string>();

async function createDirectories(proc: DsyncProc, n: number, webhookUrl: string, tag: string): Promise<Dir[]> {
  const dirs: Dir[] = [];
  await mapLimit(Array.from({ length: n }, (_, i) => i), 8, async (i) => {
    const res = await api(proc, 'POST', '/api/v1/directory-sync', {
      name: `${tag} ${i}`,
      tenant: `${tag}-${i}`,
      product: 'faults',
      type: 'generic-scim-v2',
      webhook_url: webhookUrl,
      webhook_secret: SECRET,
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    scimSecrets.set(res.body.data.id, res.body.data.scim.secret);
    dirs[i] = { id: res.body.data.id };
  });
  return dirs;
}

/**
 * Creates `perDir` users in each directory (one `user.created` event each), interleaving directories and,
 * with several processes, sending request i to procs[i % procs.length].
 */
async function createUsers(procs: DsyncProc[], dirs: Dir[], perDir: number, tag: string, concurrency = 16): Promise<void> {
  const jobs = Array.from({ length: dirs.length * perDir }, (_, i) => ({ dir: dirs[i % dirs.length]!, n: Math.floor(i / dirs.length) }));
  await mapLimit(jobs, concurrency, async ({ dir, n }, i) => {
    const proc = procs[i % procs.length]!;
    const res = await fetch(`${proc.url}/api/scim/v2.0/${dir.id}/Users`, {
      method: 'POST',
      headers: { authorization: `Bearer ${scimSecrets.get(dir.id)}`, 'content-type': 'application/scim+json' },
      body: JSON.stringify({ schemas: [USER_SCHEMA], userName: `${tag}-${n}@${dir.id}.example.com` }),
    });
    await res.arrayBuffer();
    if (res.status !== 201) throw new Error(`SCIM create on ${proc.name} answered ${res.status}`);
  });
}

// ---- the receiver -------------------------------------------------------------------------------------

interface Seen {
  /** `webhook-id` header. */
  id: string;
  body: any;
  /** The receiver answered 2xx and the sender was still there to read it. */
  acked: boolean;
}

interface Answer {
  status: number;
  delayMs?: number;
  /** Hold the answer until this settles (or the sender gives up). */
  until?: Promise<unknown>;
}

/**
 * A webhook receiver on a fixed port that can be closed (connection refused) and reopened on the same port,
 * and can answer late or with other statuses. Verifies every signature with the `standardwebhooks` package,
 * like test/support/harness.ts; a request that fails verification is counted in `rejected`.
 */
class FaultReceiver {
  port = 0;
  readonly seen: Seen[] = [];
  rejected = 0;
  inFlight = 0;
  answer: (d: Seen) => Answer = () => ({ status: 200 });
  private server: Server | undefined;
  private readonly wh = new Webhook(SECRET);

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async open(): Promise<this> {
    const server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', resolve);
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown;
      try {
        body = this.wh.verify(raw, req.headers as Record<string, string>);
      } catch (err) {
        this.rejected++;
        res.writeHead(401).end(`bad signature: ${(err as Error).message}`);
        return;
      }
      const d: Seen = { id: String(req.headers['webhook-id']), body, acked: false };
      this.seen.push(d);
      const a = this.answer(d);
      this.inFlight++;
      let done = false;
      const send = () => {
        if (done) return;
        done = true;
        this.inFlight--;
        // A sender that timed out (or died) has closed the socket: that attempt was not acknowledged.
        if (res.destroyed || req.socket.destroyed) return;
        d.acked = a.status >= 200 && a.status < 300;
        res.writeHead(a.status).end();
      };
      res.on('close', () => {
        if (!done) {
          done = true;
          this.inFlight--;
        }
      });
      const after = a.until ?? Promise.resolve();
      void after.then(() => (a.delayMs ? setTimeout(send, a.delayMs) : send()));
    });
  }

  /** Every event in arrival order (batch arrays unrolled), with the delivery it came in. */
  events(): Array<{ event: any; d: Seen }> {
    return this.seen.flatMap((d) => (Array.isArray(d.body) ? d.body : [d.body]).map((event: any) => ({ event, d })));
  }

  ackedCount(): number {
    return new Set(this.events().filter((x) => x.d.acked).map((x) => x.event.id as string)).size;
  }
}

// ---- the truth: each directory's log --------------------------------------------------------------------

async function logIds(redis: Redis, dirId: string): Promise<string[]> {
  const entries = await redis.xrange(`dsync:{${dirId}}:ev`, '-', '+');
  return entries.map(([, fields]) => (JSON.parse(fields[1]!) as { id: string }).id);
}

interface DirReport {
  firstSeen: string[];
  acked: Set<string>;
  duplicates: number;
}

function reportFor(events: Array<{ event: any; d: Seen }>, dirId: string): DirReport {
  const firstSeen: string[] = [];
  const seen = new Set<string>();
  const acked = new Set<string>();
  let duplicates = 0;
  for (const { event, d } of events) {
    if (event.directory_id !== dirId) continue;
    if (seen.has(event.id)) duplicates++;
    else {
      seen.add(event.id);
      firstSeen.push(event.id);
    }
    if (d.acked) acked.add(event.id);
  }
  return { firstSeen, acked, duplicates };
}

/** `actual` must be exactly `expected`: nothing missing, nothing extra, same order. */
function expectSequence(actual: string[], expected: string[], what: string): void {
  const want = new Set(expected);
  const got = new Set(actual);
  const missing = expected.filter((id) => !got.has(id));
  const extra = actual.filter((id) => !want.has(id));
  expect(missing.length, `${what}: ${missing.length} of ${expected.length} events never arrived (first missing: ${missing[0]})`).to.equal(0);
  expect(extra.length, `${what}: ${extra.length} events not in the log (first: ${extra[0]})`).to.equal(0);
  const firstBad = actual.findIndex((id, i) => id !== expected[i]);
  expect(firstBad, `${what}: out of log order from position ${firstBad} (got ${actual[firstBad]}, log has ${expected[firstBad]})`).to.equal(-1);
}

/** Real-time checks for one directory: complete, in log order on first delivery, every event acknowledged. */
async function expectDelivered(redis: Redis, receiver: FaultReceiver, dirs: Dir[], perDir: number): Promise<DirReport[]> {
  const events = receiver.events();
  const reports: DirReport[] = [];
  for (const dir of dirs) {
    const log = await logIds(redis, dir.id);
    expect(log.length, `directory ${dir.id}: log length`).to.equal(perDir);
    const r = reportFor(events, dir.id);
    expectSequence(r.firstSeen, log, `directory ${dir.id} (first deliveries)`);
    const unacked = log.filter((id) => !r.acked.has(id));
    expect(unacked.length, `directory ${dir.id}: ${unacked.length} events were never acknowledged by the receiver`).to.equal(0);
    expect(await redis.xlen(`dsync:{${dir.id}}:dlq`), `directory ${dir.id}: dead letters`).to.equal(0);
    reports.push(r);
  }
  // Real time: webhook-id is the event id, so a re-send necessarily carries the original webhook-id.
  for (const d of receiver.seen) expect(d.id, 'webhook-id of a real-time delivery').to.equal(d.body.id);
  expect(receiver.rejected, 'deliveries with a bad signature').to.equal(0);
  return reports;
}

/** Directory id → owner of its delivery lease, for the directories whose lease is held. */
async function heldLeases(redis: Redis, dirs: Dir[]): Promise<Map<string, string>> {
  const held = new Map<string, string>();
  for (const dir of dirs) {
    const owner = await redis.get(`dsync:{${dir.id}}:lease`);
    if (owner) held.set(dir.id, owner);
  }
  return held;
}

/**
 * A killed process's leases stay in Redis until they lapse (leaseMs: 60 s by default, not settable from the
 * environment). Waiting that long would dominate the suite, so tests expire them in Redis instead: the state
 * Redis reaches by itself after the TTL. Only leases still held by the given (dead) owners are touched.
 */
async function lapseLeases(redis: Redis, dirs: Dir[], deadOwners: Set<string>): Promise<void> {
  for (const dir of dirs) {
    const key = `dsync:{${dir.id}}:lease`;
    if (deadOwners.has((await redis.get(key)) ?? '')) await redis.pexpire(key, 1);
  }
}

async function freshRedis(db: number): Promise<Redis> {
  const redis = new Redis(`${redisUrl()}/${db}`);
  await redis.flushdb();
  return redis;
}

// ---- (a) crash ----------------------------------------------------------------------------------------

describe('delivery faults: dsync killed with SIGKILL', function () {
  this.timeout(60_000);
  let redis: Redis;
  let receiver: FaultReceiver;

  beforeEach(async () => {
    redis = await freshRedis(10);
    receiver = await new FaultReceiver().open();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') dumpOutputs(live);
    await killAll();
    await receiver.close();
    redis.disconnect();
  });

  it('a process killed mid-delivery loses nothing: a new process delivers every event, in order, re-sends under the same webhook-id', async () => {
    const DIRS = 4;
    const PER_DIR = 500;
    const TOTAL = DIRS * PER_DIR;
    // Slow-ish receiver: ~10 ms per POST, one POST in flight per directory → ≤ ~400 events/s.
    receiver.answer = () => ({ status: 200, delayMs: 10 });
    const first = await serve('serve#1', envFor(10));
    const dirs = await createDirectories(first, DIRS, receiver.url, 'crash');
    await createUsers([first], dirs, PER_DIR, 'u');
    await until(() => receiver.ackedCount() >= TOTAL / 2, () => `half of ${TOTAL} events (got ${receiver.ackedCount()})`, 20_000);

    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    const atKill = receiver.ackedCount();
    expect(atKill, 'the kill must land mid-delivery').to.be.below(TOTAL - 100);
    const held = await heldLeases(redis, dirs);
    expect(held.size, 'directories whose lease the killed process held').to.be.greaterThan(0);

    const second = await serve('serve#2', envFor(10));
    // While the dead process's leases live, the new process must leave those directories alone.
    const before = receiver.events().length;
    await sleep(750);
    const stolen = receiver.events().slice(before).filter((x) => held.has(x.event.directory_id));
    expect(stolen.length, 'deliveries for directories still leased by the dead process').to.equal(0);

    await lapseLeases(redis, dirs, new Set(held.values()));
    await until(() => receiver.ackedCount() >= TOTAL, () => `all ${TOTAL} events after the restart (got ${receiver.ackedCount()})`, 30_000);
    await sleep(300); // let a stray duplicate arrive before judging

    const reports = await expectDelivered(redis, receiver, dirs, PER_DIR);
    // The cursor is saved at least every 100 deliveries: a crash re-sends at most that many per directory
    // (plus the POST in flight when it died).
    for (const r of reports) expect(r.duplicates, 're-sent events in one directory').to.be.at.most(101);
    expect(second.child.exitCode, 'the new process is still running').to.equal(null);
  });

  it('a process killed while retrying a failed delivery: the new process resumes the retries and delivers', async () => {
    // The receiver fails the first attempts; the third attempt (a scheduled retry) is held open and the
    // process is killed while waiting for it.
    let healthy = false;
    let attempts = 0;
    let hold!: () => void;
    const held = new Promise<void>((r) => (hold = r));
    const never = new Promise<void>(() => undefined);
    receiver.answer = () => {
      if (healthy) return { status: 200 };
      attempts++;
      if (attempts === 3) {
        hold();
        return { status: 200, until: never };
      }
      return { status: 500 };
    };
    const first = await serve('serve#1', envFor(10));
    const [dir] = await createDirectories(first, 1, receiver.url, 'retry');
    await createUsers([first], [dir!], 1, 'r', 1);
    await held;
    first.child.kill('SIGKILL');
    await once(first.child, 'exit');
    const owners = new Set((await heldLeases(redis, [dir!])).values());
    expect(owners.size, 'the killed process held the lease').to.equal(1);
    healthy = true;

    await serve('serve#2', envFor(10));
    await lapseLeases(redis, [dir!], owners);
    const state = await redis.hgetall(`dsync:{${dir!.id}}:dstate`);
    const due = await redis.zscore('dsync:due', dir!.id);
    try {
      await until(() => receiver.ackedCount() >= 1, () => 'the event after the restart', 8_000);
    } catch (err) {
      throw new Error(
        `${(err as Error).message}: the directory is stuck in its retry state (dstate ${JSON.stringify(state)}, ` +
          `dsync:due score ${due ?? 'none'}); the sweep skips directories with attempts > 0 and nothing else wakes it`,
      );
    }
    await expectDelivered(redis, receiver, [dir!], 1);
  });
});

// ---- (b) two replicas -----------------------------------------------------------------------------------

describe('delivery faults: two dsync processes on one Redis', function () {
  this.timeout(60_000);
  let redis: Redis;
  let receiver: Receiver;

  beforeEach(async () => {
    redis = await freshRedis(11);
    receiver = await startReceiver(SECRET);
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') dumpOutputs(live);
    await killAll();
    await receiver.close();
    redis.disconnect();
  });

  async function delivered(metricsPort: number): Promise<number> {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    const m = /^webhook_events_delivered_total (\d+)/m.exec(text);
    return m ? Number(m[1]) : 0;
  }

  it('deliver concurrently with writes spread over both: each event exactly once, in order per directory', async () => {
    const DIRS = 6;
    const PER_DIR = 200;
    const TOTAL = DIRS * PER_DIR;
    const [m1, m2] = [await freePort(), await freePort()];
    const one = await serve('serve#1', envFor(11, { METRICS_PORT: String(m1) }));
    const two = await serve('serve#2', envFor(11, { METRICS_PORT: String(m2) }));
    const dirs = await createDirectories(one, DIRS, receiver.url, 'replicas');
    await createUsers([one, two], dirs, PER_DIR, 'u');
    await receiver.waitForEvents(TOTAL, 20_000);
    await sleep(500); // a duplicate would come late: give it the chance

    const events = receiver.events();
    const ids = events.map((e) => e.id as string);
    expect(new Set(ids).size, 'distinct events').to.equal(TOTAL);
    expect(events.length, 'deliveries (no duplicates with a healthy receiver)').to.equal(TOTAL);
    for (const d of receiver.deliveries) expect(d.id).to.equal(d.body.id);
    for (const dir of dirs) {
      const log = await logIds(redis, dir.id);
      expect(log.length).to.equal(PER_DIR);
      expectSequence(
        events.filter((e) => e.directory_id === dir.id).map((e) => e.id as string),
        log,
        `directory ${dir.id}`,
      );
    }
    // Both processes delivered (the lease moved between them), and together exactly once each.
    const [d1, d2] = [await delivered(m1), await delivered(m2)];
    expect(d1 + d2, `events delivered by serve#1 (${d1}) + serve#2 (${d2})`).to.equal(TOTAL);
    expect(Math.min(d1, d2), `both processes delivered (serve#1 ${d1}, serve#2 ${d2})`).to.be.greaterThan(0);
  });
});

// ---- (c) batch mode ---------------------------------------------------------------------------------------

describe('delivery faults: batch mode (DSYNC_WEBHOOK_BATCH_SIZE=50)', function () {
  this.timeout(60_000);
  let redis: Redis;
  let receiver: FaultReceiver;
  const BATCH = { DSYNC_WEBHOOK_BATCH_SIZE: '50' };

  before(async () => {
    redis = await freshRedis(12);
  });
  beforeEach(async () => {
    receiver = await new FaultReceiver().open();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') dumpOutputs(live);
    await killAll();
    await receiver.close();
  });
  after(() => redis.disconnect());

  /** Every POST is a JSON array of ≤50 events of one directory, webhook-id `batch_<first>_<n>`; returns events per directory. */
  function checkBatches(seen: Seen[]): Map<string, string[]> {
    const byDir = new Map<string, string[]>();
    for (const d of seen) {
      expect(d.body, 'a batch-mode POST body').to.be.an('array');
      const list = d.body as Array<{ id: string; directory_id: string }>;
      expect(list.length, 'events in one POST').to.be.within(1, 50);
      expect(new Set(list.map((e) => e.directory_id)).size, 'directories in one POST').to.equal(1);
      expect(d.id, 'batch webhook-id').to.equal(`batch_${list[0]!.id}_${list.length}`);
      const ids = byDir.get(list[0]!.directory_id) ?? [];
      ids.push(...list.map((e) => e.id));
      byDir.set(list[0]!.directory_id, ids);
    }
    expect(receiver.rejected, 'deliveries with a bad signature').to.equal(0);
    return byDir;
  }

  /** All of `dirs`' log entries after `skip` arrived exactly once, in order. */
  async function expectBatchesDelivered(dirs: Dir[], skip: number, perDir: number): Promise<void> {
    const byDir = checkBatches(receiver.seen);
    for (const dir of dirs) {
      const log = (await logIds(redis, dir.id)).slice(skip);
      expect(log.length).to.equal(perDir);
      expectSequence(byDir.get(dir.id) ?? [], log, `directory ${dir.id}`);
    }
  }

  async function expectNothingDelivered(ms: number): Promise<void> {
    await sleep(ms);
    expect(receiver.seen.length, 'POSTs before any trigger').to.equal(0);
  }

  it('delivers only when triggered: the HTTP cron route, then the CLI `dsync cron process-events` (exit 0)', async () => {
    const srv = await serve('serve(batch)', envFor(12, BATCH));
    const dirs = await createDirectories(srv, 3, receiver.url, 'batch');
    await createUsers([srv], dirs, 120, 'h');
    await expectNothingDelivered(1000);

    const res = await api(srv, 'POST', '/api/v1/dsync/cron/process-events');
    expect(res.status).to.equal(200);
    expect(res.body.data).to.include({ delivered: 360, failed: 0 });
    await expectBatchesDelivered(dirs, 0, 120);
    expect(receiver.seen.map((d) => d.body.length).sort((a, b) => a - b)).to.deep.equal([20, 20, 20, 50, 50, 50, 50, 50, 50]);

    // More events, then the CLI: only the new ones, each once.
    receiver.seen.length = 0;
    await createUsers([srv], dirs, 70, 'c');
    await expectNothingDelivered(300);
    const run = await cronRun('cron', envFor(12, BATCH));
    expect(run.code, `cron exit code; output:\n${run.output.join('\n')}`).to.equal(0);
    expect(run.delivered).to.equal(210);
    await expectBatchesDelivered(dirs, 120, 70);
    expect(receiver.seen.map((d) => d.body.length).sort((a, b) => a - b)).to.deep.equal([20, 20, 20, 50, 50, 50]);
  });

  it('two CLI runs and the HTTP cron at the same time never send an event twice', async () => {
    // 130 directories, one batch each. The receiver holds every POST until all 130 are in flight at once:
    // one runner sends at most 64 (its concurrency), so that point is reached only with all three runners
    // sending concurrently.
    const DIRS = 130;
    const PER_DIR = 3;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    receiver.answer = () => ({ status: 200, until: gate });
    const srv = await serve('serve(batch)', envFor(12, BATCH));
    const dirs = await createDirectories(srv, DIRS, receiver.url, 'runners');
    await createUsers([srv], dirs, PER_DIR, 'x');
    await expectNothingDelivered(200);

    const http = api(srv, 'POST', '/api/v1/dsync/cron/process-events');
    const cliA = cronRun('cron#A', envFor(12, BATCH));
    const cliB = cronRun('cron#B', envFor(12, BATCH));
    try {
      await until(() => receiver.inFlight >= DIRS, () => `all ${DIRS} batches in flight at once (got ${receiver.inFlight})`, 20_000);
    } finally {
      release();
    }
    const [h, a, b] = await Promise.all([http, cliA, cliB]);
    expect(h.status).to.equal(200);
    expect(a.code, `cron#A exit code; output:\n${a.output.join('\n')}`).to.equal(0);
    expect(b.code, `cron#B exit code; output:\n${b.output.join('\n')}`).to.equal(0);
    await sleep(300);

    const events = receiver.events().map((x) => x.event.id as string);
    expect(events.length, 'events received').to.equal(DIRS * PER_DIR);
    expect(new Set(events).size, 'distinct events').to.equal(DIRS * PER_DIR);
    expect(h.body.data.delivered + a.delivered + b.delivered, `delivered by HTTP ${h.body.data.delivered} + A ${a.delivered} + B ${b.delivered}`).to.equal(
      DIRS * PER_DIR,
    );
    for (const n of [h.body.data.delivered, a.delivered, b.delivered]) expect(n, 'each runner delivered some').to.be.greaterThan(0);
    await expectBatchesDelivered(dirs, 0, PER_DIR);
  });

  it('a crash after a short batch was acknowledged but before the cursor was saved: the re-send keeps the webhook-id', async () => {
    // The receiver acknowledges a 30-event batch (batch_<e1>_30) while Redis refuses writes (CLIENT PAUSE
    // WRITE), so the cursor save that follows cannot land; the process is killed there. More events arrive,
    // and the next pass re-sends the 30: a receiver deduplicating on webhook-id must see the same id again.
    const srv = await serve('serve(batch)#1', envFor(12, BATCH));
    const [dir] = await createDirectories(srv, 1, receiver.url, 'shortbatch');
    await createUsers([srv], [dir!], 30, 'p', 4);
    const admin = new Redis(`${redisUrl()}/12`);
    try {
      let paused!: () => void;
      const isPaused = new Promise<void>((r) => (paused = r));
      receiver.answer = () =>
        receiver.seen.length === 1
          ? { status: 200, until: admin.call('CLIENT', 'PAUSE', '5000', 'WRITE').then(() => paused()) }
          : { status: 200 };
      const pass = api(srv, 'POST', '/api/v1/dsync/cron/process-events').catch(() => undefined);
      await isPaused;
      await sleep(400); // the 2xx is out; the deferred cursor save is now waiting on Redis
      await kill(srv);
      await admin.call('CLIENT', 'UNPAUSE');
      await pass;
    } finally {
      admin.disconnect();
    }
    expect(receiver.seen.map((d) => d.acked)).to.deep.equal([true]);
    const original = receiver.seen[0]!.id;
    const owners = new Set((await heldLeases(redis, [dir!])).values());
    expect(owners.size, 'the killed process held the lease').to.equal(1);
    await lapseLeases(redis, [dir!], owners);

    const srv2 = await serve('serve(batch)#2', envFor(12, BATCH));
    await createUsers([srv2], [dir!], 20, 'q', 4);
    const res = await api(srv2, 'POST', '/api/v1/dsync/cron/process-events');
    expect(res.status).to.equal(200);
    const idsOf = new Map<string, Set<string>>();
    for (const { event, d } of receiver.events()) idsOf.set(event.id, (idsOf.get(event.id) ?? new Set()).add(d.id));
    const first = receiver.events().filter((x, i, all) => all.findIndex((y) => y.event.id === x.event.id) === i);
    expectSequence(first.map((x) => x.event.id as string), await logIds(redis, dir!.id), `directory ${dir!.id}`);
    const renamed = [...idsOf].filter(([, ids]) => ids.size > 1);
    expect(
      renamed.length,
      `events re-sent under a different webhook-id than their first delivery (${original}): ` +
        `${renamed.length}, e.g. ${renamed[0]?.[0]} under ${[...(renamed[0]?.[1] ?? [])].join(' and ')}`,
    ).to.equal(0);
    checkBatches(receiver.seen);
  });

  it('DSYNC_WEBHOOK_BATCH_CRON_INTERVAL=1 delivers on its own, in batches of ≤50, each event once', async () => {
    const srv = await serve('serve(interval)', envFor(12, { ...BATCH, DSYNC_WEBHOOK_BATCH_CRON_INTERVAL: '1' }));
    const dirs = await createDirectories(srv, 2, receiver.url, 'interval');
    await createUsers([srv], dirs, 80, 'i');
    await until(() => receiver.ackedCount() >= 160, () => `160 events from the interval (got ${receiver.ackedCount()})`, 10_000);
    await sleep(1200); // one more tick: it must not re-send anything
    await expectBatchesDelivered(dirs, 0, 80);
    expect(receiver.events().length, 'events received').to.equal(160);
  });
});

// ---- (d) receiver faults -------------------------------------------------------------------------------

describe('delivery faults: receiver down, failing, or too slow (real time, DSYNC_WEBHOOK_TIMEOUT=1s)', function () {
  this.timeout(60_000);
  let redis: Redis;
  let receiver: FaultReceiver;
  let srv: DsyncProc;

  before(async () => {
    redis = await freshRedis(13);
    srv = await serve('serve', envFor(13, { DSYNC_WEBHOOK_TIMEOUT: '1s' }));
  });
  beforeEach(async () => {
    receiver = await new FaultReceiver().open();
  });
  afterEach(async function () {
    if (this.currentTest?.state === 'failed') dumpOutputs([srv]);
    await receiver.close();
  });
  after(async () => {
    await killAll();
    redis.disconnect();
  });

  const DIRS = 3;
  const PER_DIR = 200;
  const TOTAL = DIRS * PER_DIR;

  /**
   * Queues TOTAL events behind a slow receiver (15 ms a POST, so delivery trails the writes), then starts the
   * fault once every write is committed, so what follows exercises the retry schedule alone.
   */
  async function backlogThenFault(tag: string, fault: () => Promise<void> | void): Promise<Dir[]> {
    receiver.answer = () => ({ status: 200, delayMs: 15 });
    const dirs = await createDirectories(srv, DIRS, receiver.url, tag);
    await createUsers([srv], dirs, PER_DIR, tag);
    await fault();
    expect(receiver.ackedCount(), 'the fault must start before the backlog is delivered').to.be.below(TOTAL - 50);
    return dirs;
  }

  it('connection refused for 2 s (receiver closed, reopened on the same port): every event arrives, in order', async () => {
    const dirs = await backlogThenFault('refused', () => receiver.close());
    const port = receiver.port;
    await sleep(2000);
    receiver.answer = () => ({ status: 200 });
    await receiver.open();
    expect(receiver.port).to.equal(port);
    await until(() => receiver.ackedCount() >= TOTAL, () => `all ${TOTAL} events (got ${receiver.ackedCount()})`, 20_000);
    await expectDelivered(redis, receiver, dirs, PER_DIR);
  });

  it('HTTP 500 for 2 s: every event arrives, in order, after recovery', async () => {
    let failing = false;
    let failed = 0;
    const dirs = await backlogThenFault('five-hundred', () => {
      failing = true;
      receiver.answer = () => {
        if (!failing) return { status: 200 };
        failed++;
        return { status: 500 };
      };
    });
    await sleep(2000);
    failing = false;
    await until(() => receiver.ackedCount() >= TOTAL, () => `all ${TOTAL} events (got ${receiver.ackedCount()})`, 20_000);
    expect(failed, 'attempts answered 500').to.be.greaterThan(0);
    await expectDelivered(redis, receiver, dirs, PER_DIR);
  });

  it('answers later than DSYNC_WEBHOOK_TIMEOUT for 2.5 s: timed-out attempts are re-sent, every event arrives in order', async () => {
    let slow = false;
    const dirs = await backlogThenFault('slow', () => {
      slow = true;
      receiver.answer = () => (slow ? { status: 200, delayMs: 1500 } : { status: 200 });
    });
    await sleep(2500);
    slow = false;
    await until(() => receiver.ackedCount() >= TOTAL, () => `all ${TOTAL} events (got ${receiver.ackedCount()})`, 20_000);
    const reports = await expectDelivered(redis, receiver, dirs, PER_DIR);
    const timedOut = receiver.seen.filter((d) => !d.acked).length;
    expect(timedOut, 'attempts that timed out').to.be.greaterThan(0);
    // Each timed-out attempt reached the receiver and was sent again: a duplicate under the same webhook-id.
    expect(reports.reduce((n, r) => n + r.duplicates, 0), 're-sent events').to.be.at.least(timedOut);
  });

  it('writes during a 3 s outage do not bypass the retry schedule: nothing is dead-lettered, every event arrives', async () => {
    // An IdP keeps provisioning while the receiver answers 503: 100 users over ~2 s. The retry schedule
    // allows ≈8.5 s, so all of them must be delivered once the receiver is back.
    let failing = true;
    let attempts = 0;
    receiver.answer = () => {
      attempts++;
      return { status: failing ? 503 : 200 };
    };
    const dirs = await createDirectories(srv, 1, receiver.url, 'outage');
    const started = Date.now();
    for (let i = 0; i < 10; i++) {
      await createUsers([srv], dirs, 10, `o${i}`, 4);
      await sleep(200);
    }
    await sleep(Math.max(0, 3000 - (Date.now() - started)));
    const attemptsDuringOutage = attempts;
    const dead = await redis.xlen(`dsync:{${dirs[0]!.id}}:dlq`);
    failing = false;
    // Only the head event is tried during the outage (order), at 0, then after ≥40, 80, 160, 320, 640, 800,
    // 800 ms (the schedule with its −20% jitter): at most 8 attempts fit in 3 s.
    expect(
      attemptsDuringOutage,
      `attempts during the 3 s outage (the schedule allows at most 8); ${dead} event(s) dead-lettered meanwhile: ` +
        'each write woke the deliverer, which retried the pinned event at once instead of at its scheduled time',
    ).to.be.at.most(8);
    expect(dead, 'dead letters after a 3 s outage that the retry schedule (≈8.5 s) covers').to.equal(0);
    await until(() => receiver.ackedCount() >= 100, () => `all 100 events (got ${receiver.ackedCount()})`, 15_000);
    await expectDelivered(redis, receiver, dirs, 100);
  });
});
