import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { MemoryStore } from '../../src/store/memory/users-groups.js';
import type { RedisStore } from '../../src/store/redis/users-groups.js';
import { run, type Running } from '../support/cli.js';
import { sleep, until } from '../support/harness.js';
import { burstOf, slowRequest, startLimited, type LimitedService } from '../support/rate-limits.js';
import { freshRedisStore, redisUrl } from '../support/services.js';
import { freePort } from '../support/ports.js';

const DB = 9;
const rename = (name: string) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
  Operations: [{ op: 'replace', path: 'displayName', value: name }],
});

describe('rate limits: a lock of a killed process expires', function () {
  this.timeout(60_000);
  let holder: Running | undefined;
  let svc: LimitedService | undefined;
  afterEach(async () => {
    holder?.child.kill('SIGKILL');
    await svc?.close();
  });

  it("blocks writes while the dead holder's lock lasts, then lets them through", async () => {
    const store: RedisStore = await freshRedisStore(DB);
    svc = await startLimited(store, { plan: 'enterprise' });
    const dir = await svc.dsync.directories.create({
      name: 'A',
      tenant: 'acme',
      product: 'app',
      type: 'generic-scim-v2',
    });
    const group = await svc.scim(dir, 'POST', '/Groups', { displayName: 'Eng' });
    const LOCK_TTL_MS = 1500;
    holder = run('node', ['--import', 'tsx', 'test/support/rate-limited-server.ts'], {
      REDIS_URL: `${redisUrl()}/${DB}`,
      LOCK_TTL_MS: String(LOCK_TTL_MS),
    });
    await until(
      () => /listening (\S+)/.test(holder!.output()),
      () => `the holder process to listen:\n${holder!.output()}`,
      30_000,
    );
    const holderUrl = /listening (\S+)/.exec(holder.output())![1]!;
    const path = `/api/scim/v2.0/${dir.id}/Groups/${group.body.id}`;
    const slow = slowRequest(
      `${holderUrl}${path}`,
      'PATCH',
      { authorization: `Bearer ${dir.scim.secret}`, 'content-type': 'application/scim+json' },
      rename('Held'),
    );
    await until(async () => (await store.redis.keys('dsync:inflight:*')).length === 1, 'the holder to take the lock');
    holder.child.kill('SIGKILL');
    await holder.exited;
    slow.abort();
    const killedAt = Date.now();
    // The lock outlives its process (nobody released it) ...
    expect((await svc.scim(dir, 'PATCH', `/Groups/${group.body.id}`, rename('Blocked'))).status).to.equal(429);
    // ... until its expiry, not a moment later than that. Tries go 10 a second, under the plan's burst of 20, so
    // the 429s seen are the lock's.
    await until(
      async () => {
        await sleep(90);
        return (await svc!.scim(dir, 'PATCH', `/Groups/${group.body.id}`, rename('Free'))).status === 204;
      },
      'the dead lock to expire',
      5_000,
    );
    expect(Date.now() - killedAt, "the holder's 1.5 s expiry, not the 30 s default").to.be.below(LOCK_TTL_MS + 3_000);
    // Read through the management API: its bucket is not the one the tries above spent.
    const stored = await svc.api('GET', `/api/v1/directory-sync/groups/${group.body.id}?directoryId=${dir.id}`);
    expect(stored.body.data.name).to.equal('Free');
  });
});

describe('rate limits: Redis unreachable', function () {
  this.timeout(30_000);
  let redisServer: ChildProcess | undefined;
  let workDir: string | undefined;
  let limiterRedis: Redis | undefined;
  let svc: LimitedService | undefined;
  after(async () => {
    redisServer?.kill('SIGKILL');
    limiterRedis?.disconnect();
    await svc?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('keeps limiting in the process (burst and inflight) and answers no 5xx', async () => {
    // The limiter's own Redis, which this test stops; the store stays up, so only the limiter loses Redis.
    const port = await freePort();
    workDir = mkdtempSync(join(tmpdir(), 'dsync-rl-'));
    redisServer = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', workDir],
      { stdio: 'ignore' },
    );
    // The store's fail-fast settings: what `dsync serve` gives the limiter.
    limiterRedis = new Redis(`redis://127.0.0.1:${port}`, {
      commandTimeout: 500,
      maxRetriesPerRequest: 1,
      autoResendUnfulfilledCommands: false,
    });
    limiterRedis.on('error', () => undefined);
    await until(async () => (await limiterRedis!.ping().catch(() => '')) === 'PONG', 'the limiter Redis to start');
    svc = await startLimited(new MemoryStore(), { plan: 'developer', redis: limiterRedis });
    const dir = await svc.dsync.directories.create({
      name: 'A',
      tenant: 'acme',
      product: 'app',
      type: 'generic-scim-v2',
    });
    const group = await svc.scim(dir, 'POST', '/Groups', { displayName: 'Eng' });
    expect(group.status).to.equal(201);
    expect(await limiterRedis.keys('dsync:rl:scim:*')).to.have.length(2); // counted in Redis while it is up

    redisServer.kill('SIGKILL');
    await until(() => limiterRedis!.status !== 'ready', 'the client to notice Redis is gone');
    await sleep(1_100); // a fresh burst window
    const list = () => svc!.scim(dir, 'GET', '/Users');
    expect(await burstOf(3, list)).to.deep.equal({ 200: 1, 429: 2 });
    expect(await svc.decisions('scim', 'burst', 'limited')).to.equal(2);
    expect(
      svc.logs.some((l) => /rate-limit store \(Redis\) unreachable: limiting in this process only/.test(String(l.msg))),
    ).to.equal(true);

    // Inflight locks fall back to the process as well: a PATCH in progress still blocks a second one.
    await sleep(1_100);
    const management = await svc.api('PATCH', `/api/v1/directory-sync/${dir.id}`, { name: 'Renamed' });
    expect(management.status).to.equal(200);
    const slow = slowRequest(
      `${svc.url}/api/v1/directory-sync/${dir.id}`,
      'PATCH',
      { authorization: 'Api-Key test-api-key', 'content-type': 'application/json' },
      { name: 'Slow' },
    );
    await until(
      async () => (await svc!.decisions('default', 'inflight', 'allowed')) >= 2,
      'the slow PATCH to take its local lock',
    );
    const second = await svc.api('PATCH', `/api/v1/directory-sync/${dir.id}`, { name: 'Other' });
    expect(second.status).to.equal(429);
    expect((await slow.finish()).status).to.equal(200);
  });
});
