/**
 * Store outages fail fast: a real `dsync serve` on a redis-server this file starts itself
 * (its own port, AOF with fsync on every write, so it can be paused, SIGKILLed and restarted with its data),
 * under a concurrent SCIM write load. Every response must be 2xx or 503 (with Retry-After and a SCIM Error body)
 * within 1.5 s, never a 500, the process must not crash, it must recover by itself, and every write that got a
 * 2xx must be there afterwards with its event (SCIM API and Events API) — and reach the webhook.
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { Redis } from 'ioredis';
import { READY_WITHIN_MS, sleep, startReceiver, until, type Receiver } from '../support/harness.js';
import { RedisServer } from '../support/redis-server.js';
import { freePort } from '../support/ports.js';

const API_KEY = 'store-faults-key';
const BOUND_MS = 1500;
const WORKERS = 8;

interface Outcome {
  kind: 'create' | 'patch' | 'readyz' | 'healthz' | 'management';
  status: number;
  ms: number;
  phase: string;
  userName?: string;
  id?: string;
  active?: boolean;
  retryAfter?: string | null;
  body?: any;
}

describe('store outages fail fast (redis-server paused and killed under SCIM write load)', function () {
  this.timeout(90_000);
  let redis: RedisServer;
  let serve: ChildProcess;
  let output: string[] = [];
  let url: string;
  let hooks: Receiver;

  before(async () => {
    redis = await RedisServer.start();
    hooks = await startReceiver();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    serve = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        METRICS_PORT: '0',
        REDIS_URL: `redis://127.0.0.1:${redis.port}`,
        DSYNC_API_KEYS: API_KEY,
        DSYNC_WEBHOOK_ALLOW_PRIVATE: 'true',
        DSYNC_WEBHOOK_RETRY_SCHEDULE: '100ms,200ms,400ms,800ms,1s,1s,1s,1s,1s,1s',
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const keep = (chunk: Buffer) => {
      output.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      output = output.slice(-200);
    };
    serve.stdout!.on('data', keep);
    serve.stderr!.on('data', keep);
    await until(
      async () => {
        if (serve.exitCode !== null) throw new Error(`dsync serve exited:\n${output.join('\n')}`);
        return (await fetch(`${url}/readyz`).catch(() => undefined))?.ok === true;
      },
      'dsync serve to be ready',
      READY_WITHIN_MS,
    );
  });

  after(async () => {
    if (serve && serve.exitCode === null) {
      const exited = once(serve, 'exit');
      serve.kill('SIGKILL');
      await exited;
    }
    await redis?.stop();
    await hooks?.close();
  });

  afterEach(function () {
    if (this.currentTest?.state === 'failed')
      process.stderr.write(`\n--- dsync serve output ---\n${output.slice(-30).join('\n')}\n`);
  });

  async function timed(kind: Outcome['kind'], phase: string, path: string, init: RequestInit = {}): Promise<Outcome> {
    const started = performance.now();
    const res = await fetch(`${url}${path}`, init);
    const text = await res.text();
    const ms = performance.now() - started;
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    return { kind, status: res.status, ms, phase, retryAfter: res.headers.get('retry-after'), body };
  }

  it('answers 2xx or 503 within 1.5 s throughout, recovers by itself, and loses no acknowledged write or event', async () => {
    const created = await fetch(`${url}/api/v1/directory-sync`, {
      method: 'POST',
      headers: { authorization: `Api-Key ${API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'Faults',
        tenant: 'faults',
        product: 'app',
        type: 'okta-scim-v2',
        webhook_url: hooks.url,
        webhook_secret: hooks.secret,
      }),
    });
    expect(created.status).to.equal(201);
    const dir = ((await created.json()) as any).data;
    const scimHeaders = { authorization: `Bearer ${dir.scim.secret}`, 'content-type': 'application/scim+json' };
    const scim = `/api/scim/v2.0/${dir.id}`;

    const outcomes: Outcome[] = [];
    let phase = 'healthy';
    let running = true;
    let seq = 0;
    const worker = async (w: number) => {
      const mine: Array<{ id: string; active: boolean }> = [];
      while (running) {
        const patchable = mine.length > 0 && seq % 3 === 0;
        if (patchable) {
          const target = mine[seq++ % mine.length]!;
          const active = !target.active;
          const o = await timed('patch', phase, `${scim}/Users/${target.id}`, {
            method: 'PATCH',
            headers: scimHeaders,
            body: JSON.stringify({
              schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
              Operations: [{ op: 'replace', path: 'active', value: active }],
            }),
          });
          outcomes.push({ ...o, id: target.id, active });
          if (o.status === 200) target.active = active;
        } else {
          const userName = `w${w}-${seq++}@faults.io`;
          const o = await timed('create', phase, `${scim}/Users`, {
            method: 'POST',
            headers: scimHeaders,
            body: JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName, active: true }),
          });
          outcomes.push({ ...o, userName, ...(o.status === 201 && { id: o.body.id }) });
          if (o.status === 201) mine.push({ id: o.body.id, active: true });
        }
      }
    };
    const probes = async () => {
      while (running) {
        outcomes.push(await timed('healthz', phase, '/healthz'));
        outcomes.push(await timed('readyz', phase, '/readyz'));
        outcomes.push(
          await timed('management', phase, `/api/v1/directory-sync/${dir.id}`, {
            headers: { authorization: `Api-Key ${API_KEY}` },
          }),
        );
        await sleep(50);
      }
    };
    const load = Promise.all([...Array.from({ length: WORKERS }, (_, w) => worker(w)), probes()]);

    const admin = new Redis(redis.port, '127.0.0.1');
    try {
      await sleep(500);
      phase = 'paused';
      await admin.call('CLIENT', 'PAUSE', '3000', 'ALL');
      await sleep(3000);
      phase = 'after-pause';
      await sleep(1000);
      phase = 'killed';
      admin.disconnect();
      await redis.kill();
      await sleep(2500);
      phase = 'restarted';
      await redis.start();
      await until(async () => (await fetch(`${url}/readyz`)).ok, 'readyz to recover', 10_000);
      phase = 'recovered';
      await sleep(1500);
    } finally {
      running = false;
      admin.disconnect();
      await load;
    }

    expect(serve.exitCode, 'dsync serve must not exit').to.equal(null);
    const byPhase = (p: string) => outcomes.filter((o) => o.phase === p);
    const writes = outcomes.filter((o) => o.kind === 'create' || o.kind === 'patch');
    const slowest = Math.max(...outcomes.map((o) => o.ms));
    const slowestReadyz = Math.max(...outcomes.filter((o) => o.kind === 'readyz').map((o) => o.ms));
    process.stdout.write(
      `      ${writes.length} writes (${writes.filter((o) => o.status < 300).length} 2xx, ${writes.filter((o) => o.status === 503).length} 503); ` +
        `slowest response ${slowest.toFixed(0)} ms, slowest readyz ${slowestReadyz.toFixed(0)} ms\n`,
    );

    const late = outcomes.filter((o) => o.ms >= BOUND_MS || ![200, 201, 503].includes(o.status));
    expect(
      late.map((o) => `${o.kind}/${o.phase}/${o.status}/${o.ms.toFixed(0)}ms`),
      'responses outside 2xx/503 within 1.5 s',
    ).to.deep.equal([]);
    for (const o of outcomes) {
      const label = `${o.kind} in phase ${o.phase}: ${o.status} after ${o.ms.toFixed(0)} ms ${JSON.stringify(o.body)?.slice(0, 200)}`;
      expect([200, 201, 503], label).to.include(o.status);
      expect(o.ms, label).to.be.below(BOUND_MS);
      if (o.status === 503 && o.kind !== 'healthz') expect(o.retryAfter, label).to.equal('1');
      if (o.status === 503 && (o.kind === 'create' || o.kind === 'patch')) {
        expect(o.body, label).to.deep.include({
          schemas: ['urn:ietf:params:scim:api:messages:2.0:Error'],
          status: '503',
        });
      }
      if (o.status === 503 && o.kind === 'management') {
        expect(o.body, label).to.deep.include({ data: null });
        expect(o.body.error, label).to.deep.include({ code: 503 });
        expect(o.body.error.message, label).to.match(/^The data store is unavailable \(.+\); retry shortly$/);
      }
    }
    // The faults really happened, and were seen for what they are.
    for (const p of ['paused', 'killed']) {
      expect(
        byPhase(p)
          .filter((o) => o.kind === 'create' || o.kind === 'patch')
          .some((o) => o.status === 503),
        `a 503 while ${p}`,
      ).to.equal(true);
      expect(
        byPhase(p).some((o) => o.kind === 'readyz' && o.status === 503),
        `readyz 503 while ${p}`,
      ).to.equal(true);
    }
    expect(
      outcomes.filter((o) => o.kind === 'healthz').every((o) => o.status === 200),
      'healthz stays up',
    ).to.equal(true);
    // A readiness probe's default timeout is 1 s: readyz answers well inside it, ready or not.
    const slowReadyz = outcomes
      .filter((o) => o.kind === 'readyz' && o.ms >= 1000)
      .map((o) => `${o.phase}/${o.status}/${o.ms.toFixed(0)}ms`);
    expect(slowReadyz, 'readyz within a 1 s probe timeout').to.deep.equal([]);
    // Recovered: the connection is back for every write. A create may still answer 503 for a slow store (the
    // 500 ms command timeout, as in the healthy phase when fsync stalls on a busy machine), never for a
    // connection that did not come back.
    const recoveredCreates = byPhase('recovered').filter((o) => o.kind === 'create');
    const refusedAfterRecovery = recoveredCreates
      .filter((o) => o.status !== 201 && !/\(Command timed out\)/.test(o.body?.detail ?? ''))
      .map((o) => `${o.status} after ${o.ms.toFixed(0)} ms: ${JSON.stringify(o.body)?.slice(0, 200)}`);
    expect(refusedAfterRecovery, 'writes work again after recovery').to.deep.equal([]);
    const storedAfterRecovery = recoveredCreates.filter((o) => o.status === 201).length;
    expect(storedAfterRecovery, `creates stored after recovery, of ${recoveredCreates.length}`).to.be.above(
      recoveredCreates.length / 2,
    );

    // Every acknowledged create is stored and has its user.created event; every acknowledged PATCH its user.updated.
    const events: any[] = [];
    for (let after = ''; ; ) {
      const page = await fetch(
        `${url}/api/v1/directory-sync/${dir.id}/events?limit=1000${after && `&after=${after}`}`,
        {
          headers: { authorization: `Api-Key ${API_KEY}` },
        },
      );
      const data = ((await page.json()) as any).data;
      events.push(...data.events);
      if (data.events.length < 1000) break;
      after = data.next_cursor;
    }
    const createdEvents = new Set(events.filter((e) => e.event === 'user.created').map((e) => e.data.id));
    const updatesOf = new Map<string, number>();
    for (const e of events.filter((e) => e.event === 'user.updated'))
      updatesOf.set(e.data.id, (updatesOf.get(e.data.id) ?? 0) + 1);
    const acknowledged = outcomes.filter((o) => o.kind === 'create' && o.status === 201);
    for (const o of acknowledged) {
      const read = await fetch(`${url}${scim}/Users/${o.id}`, { headers: scimHeaders });
      expect(read.status, `user ${o.userName} (201 in phase ${o.phase}) is stored`).to.equal(200);
      expect(createdEvents.has(o.id), `user.created of ${o.userName}`).to.equal(true);
    }
    const patchesOf = new Map<string, number>();
    for (const o of outcomes.filter((o) => o.kind === 'patch' && o.status === 200))
      patchesOf.set(o.id!, (patchesOf.get(o.id!) ?? 0) + 1);
    for (const [id, n] of patchesOf) expect(updatesOf.get(id) ?? 0, `user.updated events of ${id}`).to.be.at.least(n);

    // The delivery engine lived through it: every event of an acknowledged create reaches the webhook.
    await until(
      () => {
        const delivered = new Set(
          hooks
            .events()
            .filter((e) => e.event === 'user.created')
            .map((e) => e.data.id),
        );
        return acknowledged.every((o) => delivered.has(o.id));
      },
      'every acknowledged user.created to be delivered',
      30_000,
    );
  });
});
