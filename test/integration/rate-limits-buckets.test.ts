import { expect } from 'chai';
import { MemoryStore } from '../../src/store/memory/users-groups.js';
import type { Cluster } from 'ioredis';
import type { RedisStore } from '../../src/store/redis/users-groups.js';
import { API_KEY, openStore, sleep } from '../support/harness.js';
import { run, waitHealthy, type Running } from '../support/cli.js';
import { burstOf, startLimited, type LimitedService, type LimitOptions } from '../support/rate-limits.js';
import { freshRedisStore, redisUrl } from '../support/services.js';
import { blocksOf } from '../readme/readme-blocks.js';
import { freePort } from '../support/ports.js';

/** The example 429 of docs/operating/rate-limits.md: status line, headers, blank line, body. */
function readmeExample(): { status: number; headers: Record<string, string>; body: unknown } {
  const [head, body] = blocksOf('rate-limit-429')[0]!.code.split('\n\n');
  const [statusLine, ...headerLines] = head!.split('\n');
  const headers = Object.fromEntries(
    headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(body!) };
}

const DB = 7;

describe('rate limits: project buckets on Redis', function () {
  this.timeout(30_000);
  let svc: LimitedService;
  let dir: any;
  let other: any;

  async function start(o: LimitOptions): Promise<void> {
    svc = await startLimited(await freshRedisStore(DB), o);
    // Directories are made through the service, not the API, so setting up spends nothing of the default bucket.
    dir = await svc.dsync.directories.create({ name: 'A', tenant: 'acme', product: 'app', type: 'generic-scim-v2' });
    other = await svc.dsync.directories.create({ name: 'B', tenant: 'beta', product: 'app', type: 'generic-scim-v2' });
  }
  afterEach(async () => svc?.close());

  const listUsers = (d = dir) => svc.scim(d, 'GET', '/Users');
  const listDirectories = () => svc.api('GET', '/api/v1/directory-sync?tenant=acme&product=app');

  it('Developer: the scim bucket trips at the 2nd request in a second, with a SCIM Error 429 and the headers', async () => {
    await start({ plan: 'developer' });
    const first = await listUsers();
    expect(first.status).to.equal(200);
    expect(first.headers.get('ratelimit-limit')).to.equal('1');
    expect(first.headers.get('ratelimit-remaining')).to.equal('0');
    expect(first.headers.get('ratelimit-policy')).to.equal('"burst";q=1;w=1, "sustained";q=10;w=60');
    const second = await listUsers();
    expect(second.status).to.equal(429);
    expect(second.headers.get('content-type')).to.match(/^application\/scim\+json/);
    expect(second.body).to.include({ status: '429' });
    expect(second.body.schemas).to.deep.equal(['urn:ietf:params:scim:api:messages:2.0:Error']);
    expect(second.body.detail).to.match(/Rate limit exceeded \(scim: 1 requests per second, 10 per minute\)/);
    expect(second.headers.get('retry-after')).to.equal('1');
    expect(second.headers.get('ratelimit-limit')).to.equal('1');
    expect(second.headers.get('ratelimit-remaining')).to.equal('0');
    expect(Number(second.headers.get('ratelimit-reset'))).to.equal(1);
    expect(await svc.decisions('scim', 'burst', 'limited')).to.equal(1);
  });

  it('Developer: the default bucket allows exactly 5 in a second, refuses the rest in the management envelope', async () => {
    await start({ plan: 'developer' });
    const replies = await Promise.all(Array.from({ length: 7 }, listDirectories));
    expect(replies.filter((r) => r.status === 200)).to.have.length(5);
    const refused = replies.filter((r) => r.status === 429);
    expect(refused).to.have.length(2);
    expect(refused[0]!.body).to.deep.include({ data: null });
    expect(refused[0]!.body.error).to.include({ code: 429 });
    expect(refused[0]!.body.error.message).to.match(/default: 5 requests per second, 150 per minute/);
    expect(Number(refused[0]!.headers.get('retry-after'))).to.be.at.least(1);
  });

  it('Production: scim trips at the 11th request in a second, default at the 41st', async () => {
    await start({ plan: 'production' });
    expect(await burstOf(10, () => listUsers())).to.deep.equal({ 200: 10 });
    const eleventh = await listUsers();
    // Exactly what the rate-limits page shows an IdP receiving.
    const example = readmeExample();
    expect(eleventh.status).to.equal(example.status);
    for (const [name, value] of Object.entries(example.headers))
      expect(eleventh.headers.get(name), name).to.equal(value);
    expect(eleventh.body).to.deep.equal(example.body);
    expect((await listUsers()).status).to.equal(429);
    expect(await burstOf(42, listDirectories)).to.deep.equal({ 200: 40, 429: 2 });
    expect(await svc.decisions('default', 'burst', 'limited')).to.equal(2);
  });

  it('Developer: the sustained limit trips at the 11th scim request in a minute, each inside the burst limit', async function () {
    this.timeout(40_000);
    await start({ plan: 'developer' });
    for (let i = 1; i <= 10; i++) {
      const r = await listUsers();
      expect(r.status, `request ${i}`).to.equal(200);
      await sleep(1_050); // the 1 s burst window starts over; the 60 s window keeps counting
    }
    const refused = await listUsers();
    expect(refused.status).to.equal(429);
    expect(await svc.decisions('scim', 'sustained', 'limited')).to.equal(1);
    expect(await svc.decisions('scim', 'burst', 'limited')).to.equal(0);
    expect(refused.headers.get('ratelimit-limit')).to.equal('10');
    expect(Number(refused.headers.get('retry-after'))).to.be.within(40, 60);
  });

  it("Production's sustained 300 per minute trips at the 301st (burst lifted by an override, so it runs in seconds)", async () => {
    await start({ plan: 'production', overrides: { scim: { burst: 1000, sustained: 300 } } });
    for (let i = 0; i < 6; i++) expect(await burstOf(50, () => listUsers())).to.deep.equal({ 200: 50 });
    const refused = await listUsers();
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('ratelimit-limit')).to.equal('300');
    expect(await svc.decisions('scim', 'sustained', 'limited')).to.equal(1);
  });

  it('keeps directories apart: a second directory is unaffected by the first one being limited', async () => {
    await start({ plan: 'developer' });
    expect((await listUsers()).status).to.equal(200);
    expect((await listUsers()).status).to.equal(429);
    expect((await listUsers(other)).status).to.equal(200);
    expect((await listUsers(other)).status).to.equal(429);
  });

  it('a caller without the directory credential never uses up the budget of its real IdP', async () => {
    await start({ plan: 'developer' });
    const forged = () =>
      fetch(`${svc.url}/api/scim/v2.0/${dir.id}/Users`, { headers: { Authorization: 'Bearer not-the-scim-secret' } });
    const attempts = await Promise.all(Array.from({ length: 5 }, forged));
    // Its own budget (1 a second) is spent: one 401, then 429s.
    expect(attempts.map((r) => r.status).sort()).to.deep.equal([401, 429, 429, 429, 429]);
    expect((await listUsers()).status).to.equal(200);
    expect((await listUsers()).status).to.equal(429);
  });

  it('leaves health checks alone and sends no RateLimit headers there', async () => {
    await start({ plan: 'developer' });
    for (let i = 0; i < 10; i++) {
      const r = await fetch(`${svc.url}/healthz`);
      expect(r.status).to.equal(200);
      expect(r.headers.get('ratelimit-limit')).to.equal(null);
    }
  });
});

describe('rate limits: the embedded memory store', () => {
  it('counts in the process: Developer scim trips at the 2nd request, default at the 6th', async () => {
    const svc = await startLimited(new MemoryStore(), { plan: 'developer' });
    try {
      const dir = await svc.dsync.directories.create({
        name: 'A',
        tenant: 'acme',
        product: 'app',
        type: 'generic-scim-v2',
      });
      expect(await burstOf(3, () => svc.scim(dir, 'GET', '/Users'))).to.deep.equal({ 200: 1, 429: 2 });
      expect(await burstOf(6, () => svc.api('GET', '/api/v1/directory-sync?tenant=acme&product=app'))).to.deep.equal({
        200: 5,
        429: 1,
      });
    } finally {
      await svc.close();
    }
  });
});

describe('rate limits: two service instances share one limit on the Redis Cluster', function () {
  this.timeout(20_000);
  const services: LimitedService[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((s) => s.close()));
  });

  it('refuses exactly what goes over the Developer default burst across both; the counters live on the cluster', async () => {
    // Both stores are open (and the cluster flushed) before any request, so neither counts from a stale window.
    const stores = [(await openStore('redis-cluster')) as RedisStore, (await openStore('redis-cluster')) as RedisStore];
    for (const store of stores) services.push(await startLimited(store, { plan: 'developer' }));
    const list = (s: LimitedService) => () => s.api('GET', '/api/v1/directory-sync?tenant=acme&product=app');
    const replies = await Promise.all(services.flatMap((s) => Array.from({ length: 4 }, list(s))));
    expect(replies.filter((r) => r.status === 200)).to.have.length(5);
    expect(replies.filter((r) => r.status === 429)).to.have.length(3);
    // Each instance alone would have let all eight through (four each, under its own limit of five); so would
    // the in-process insurance limiter, which answers only while Redis fails and then logs a warning.
    for (const s of services) expect(s.logs.filter((l) => /unreachable/.test(String(l.msg)))).to.deep.equal([]);
    const cluster = stores[0]!.redis as Cluster;
    const perMaster = await Promise.all(cluster.nodes('master').map((n) => n.keys('dsync:rl:default:sustained:*')));
    const keys = perMaster.flat();
    expect(keys).to.have.length(1);
    expect(await cluster.get(keys[0]!), 'only the allowed requests are counted').to.equal('5');
  });
});

describe('rate limits: two server processes share one limit', function () {
  this.timeout(90_000);
  const procs: Running[] = [];
  after(async () => {
    for (const p of procs) p.child.kill('SIGKILL');
    await Promise.all(procs.map((p) => p.exited));
  });

  it('refuses exactly what goes over the Developer default burst across both', async () => {
    await (await freshRedisStore(DB)).close();
    const ports = [await freePort(), await freePort()];
    for (const port of ports) {
      const proc = run('node', ['--import', 'tsx', 'src/cli.ts', 'serve'], {
        PORT: String(port),
        METRICS_PORT: '0',
        REDIS_URL: `${redisUrl()}/${DB}`,
        DSYNC_API_KEYS: API_KEY,
        DSYNC_RATE_LIMIT_PLAN: 'developer',
        LOG_LEVEL: 'warn',
      });
      procs.push(proc);
      await waitHealthy(port, proc);
    }
    const get = (port: number) =>
      fetch(`http://127.0.0.1:${port}/api/v1/directory-sync?tenant=acme&product=app`, {
        headers: { authorization: `Api-Key ${API_KEY}` },
      });
    const replies = await Promise.all(ports.flatMap((port) => Array.from({ length: 4 }, () => get(port))));
    expect(replies.filter((r) => r.status === 200)).to.have.length(5);
    expect(replies.filter((r) => r.status === 429)).to.have.length(3);
    // Each process alone would have let all eight through (four each, under its own limit of five).
  });

  it('refuses to start on a bad plan, naming the variable', async () => {
    const proc = run('node', ['--import', 'tsx', 'src/cli.ts', 'serve'], {
      PORT: String(await freePort()),
      METRICS_PORT: '0',
      DSYNC_RATE_LIMIT_PLAN: 'free',
    });
    expect(await proc.exited).to.not.equal(0);
    expect(proc.output()).to.match(
      /DSYNC_RATE_LIMIT_PLAN must be one of developer, production, growth, enterprise, essential, scale/,
    );
  });
});
