/**
 * Rate-limit buckets, inflight locks and the `route` metric label key on the
 * request's canonical identity, not on its raw path. A fuzz over spellings (letter case, percent-encoding,
 * trailing and doubled slashes, dot segments, encoded slashes) must find one bucket, one lock and a bounded
 * number of series; requests without a credential take no lock and log nothing.
 */
import { request as httpRequest, Agent } from 'node:http';
import { expect } from 'chai';
import type { Redis } from 'ioredis';
import { createPageLimits, type PageLimits } from '../../src/ratelimit/page-limits.js';
import type { RedisStore } from '../../src/store/redis/users-groups.js';
import { openStore, startService, type StoreKind } from '../support/harness.js';
import { fuzzSeed, seeded, spellings } from '../support/path-spellings.js';
import { slowRequest, startLimited, type LimitedService } from '../support/rate-limits.js';
import { until } from '../support/harness.js';

const DB = 14;
const SEED = fuzzSeed(1919);

/** Raw HTTP: the path goes on the wire exactly as spelled (fetch would normalise dot segments). */
function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
  agent?: Agent,
) {
  const { hostname, port } = new URL(url);
  return new Promise<number>((resolve, reject) => {
    const req = httpRequest({
      hostname,
      port,
      method,
      path,
      headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
      agent,
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

const served = (statuses: number[]) => statuses.filter((s) => s >= 200 && s < 300).length;

for (const kind of ['memory', 'redis'] as StoreKind[]) {
  describe(`one identity per resource for limits and locks, ${kind} store (DSYNC_FUZZ_SEED=${SEED})`, function () {
    this.timeout(30_000);
    let svc: LimitedService | undefined;
    afterEach(async () => {
      const closing = svc;
      svc = undefined; // a test that starts its own service leaves nothing to close twice
      await closing?.close();
    });

    it("bucket: 40 spellings of a directory's /Users all count in its one bucket (Developer: 10 a minute)", async () => {
      svc = await startLimited(await openStore(kind, DB), { plan: 'developer' });
      const dir = await svc.dsync.directories.create({
        name: 'A',
        tenant: 'acme',
        product: 'app',
        type: 'generic-scim-v2',
      });
      const statuses: number[] = [];
      for (const path of [
        `/api/scim/v2.0/${dir.id}/Users`,
        ...spellings(`/api/scim/v2.0/${dir.id}/Users`, 40, SEED, { ids: [dir.id] }),
      ]) {
        statuses.push(await send(svc.url, 'GET', path, { authorization: `Bearer ${dir.scim.secret}` }));
      }
      // The burst allows one a second, the sustained window ten a minute: whatever the spelling.
      expect(served(statuses), statuses.join(' ')).to.be.within(1, 10);
      if (kind === 'redis') {
        const redis = (svc.dsync.store as RedisStore).redis as Redis;
        const keys = (await redis.keys('dsync:rl:scim:*')).filter((k) => !k.includes(':unauthenticated:'));
        expect(keys.sort()).to.deep.equal([`dsync:rl:scim:burst:${dir.id}`, `dsync:rl:scim:sustained:${dir.id}`]);
      }
    });

    it('lock: while a PATCH holds a group or a directory, no spelling of the same PATCH gets through', async () => {
      const lifted = { burst: 100_000, sustained: 1_000_000 };
      svc = await startLimited(await openStore(kind, DB), {
        plan: 'enterprise',
        overrides: { scim: lifted, default: lifted },
      });
      const dir = await svc.dsync.directories.create({
        name: 'A',
        tenant: 'acme',
        product: 'app',
        type: 'generic-scim-v2',
      });
      const group = (await svc.scim(dir, 'POST', '/Groups', { displayName: 'Eng' })).body;
      const rename = {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: [{ op: 'replace', path: 'displayName', value: 'X' }],
      };
      const cases = [
        {
          path: `/api/scim/v2.0/${dir.id}/Groups/${group.id}`,
          headers: { authorization: `Bearer ${dir.scim.secret}` },
          body: rename,
          bucket: 'scim' as const,
        },
        {
          path: `/api/v1/directory-sync/${dir.id}`,
          headers: { authorization: 'Api-Key test-api-key' },
          body: { name: 'B' },
          bucket: 'default' as const,
        },
      ];
      for (const c of cases) {
        const before = await svc.decisions(c.bucket, 'inflight', 'allowed');
        const holder = slowRequest(
          `${svc.url}${c.path}`,
          'PATCH',
          { ...c.headers, 'content-type': 'application/json' },
          c.body,
        );
        await until(
          async () => (await svc!.decisions(c.bucket, 'inflight', 'allowed')) > before,
          'the first PATCH to take its lock',
        );
        const statuses: number[] = [];
        const ids = [dir.id, group.id];
        const paths = [
          ...spellings(c.path, 25, SEED, { ids, structural: false }),
          ...spellings(c.path, 25, SEED, { ids }),
        ];
        for (const path of paths) statuses.push(await send(svc.url, 'PATCH', path, c.headers, c.body));
        expect(served(statuses), `${c.path}: ${statuses.join(' ')}`).to.equal(0);
        expect(
          statuses.filter((s) => s === 429).length,
          `most spellings reach the lock: ${statuses.join(' ')}`,
        ).to.be.greaterThan(20);
        if (kind === 'redis') {
          const redis = (svc.dsync.store as RedisStore).redis as Redis;
          expect(await redis.keys('dsync:inflight:*'), 'one lock').to.have.length(1);
        }
        expect((await holder.finish()).status).to.be.oneOf([200, 204]);
      }
    });

    it('setup page: spellings of a link share its one limiter key, take no lock, count no failure and one label per route', async () => {
      const store = await openStore(kind, DB);
      const redis = kind === 'redis' ? ((store as RedisStore).redis as Redis) : undefined;
      const inner = createPageLimits(redis ? { redis } : {});
      const keys = new Set<string>();
      const pageLimits: PageLimits = { take: (k, key) => (keys.add(`${k}:${key}`), inner.take(k, key)) };
      const page = await startService(store, {}, { pageLimits });
      try {
        const dir = await page.dsync.directories.create({
          name: 'A',
          tenant: 'acme',
          product: 'app',
          type: 'okta-scim-v2',
        });
        const created = await page.dsync.setupLinks.create(dir.id, {});
        const token = created.url.split('/').pop()!;
        const path = `/setup/${token}/status`;
        const json = { accept: 'application/json' };
        // Letter case of the fixed segments, percent-encoding (of the token too), a trailing slash: the same page
        // (express matches fixed segments undecoded: one percent-encoded there is a 404, as everywhere).
        const variants = [path, ...spellings(path, 40, SEED, { ids: [token], structural: false })];
        const same = await Promise.all(variants.map((p) => send(page.url, 'GET', p, json)));
        const fixedEncoded = (p: string) => p.split('/').some((segment, i) => i !== 2 && segment.includes('%'));
        expect(same, variants.join(' ')).to.deep.equal(variants.map((p) => (fixedEncoded(p) ? 404 : 200)));
        expect(same.filter((s) => s === 200).length).to.be.greaterThan(30);
        expect([...keys]).to.deep.equal([`view:${created.id}`]);
        // Slashes and dot segments too: another page, a 404 or a link that does not open, never a new key or a fault.
        const other = await Promise.all(
          spellings(path, 40, SEED, { ids: [token] }).map((p) => send(page.url, 'GET', p, json)),
        );
        expect(
          other.filter((s) => s >= 500),
          other.join(' '),
        ).to.deep.equal([]);
        expect([...keys]).to.deep.equal([`view:${created.id}`]);
        const failures = (await page.dsync.metrics.authFailures.get()).values.find(
          (v) => v.labels.api === 'setup' && v.labels.outcome === 'failed',
        );
        expect(
          failures?.value ?? 0,
          'only a spelling that names another link is a failed authentication',
        ).to.be.at.most(other.filter((s) => s === 404).length);
        if (redis) {
          expect(await redis.keys('dsync:rl:setup:*')).to.deep.equal([`dsync:rl:setup:view:${created.id}`]);
          expect(await redis.keys('dsync:inflight:*'), 'no lock').to.deep.equal([]);
        }
        const { values } = await page.dsync.metrics.httpDuration.get();
        expect(JSON.stringify(values), 'the link is never a label').not.to.contain(token);
        const labels = new Set(values.map((v) => v.labels.route));
        // A spelling that opens the link takes its route's label; any other is refused before a handler.
        expect(
          [...labels].filter(
            (l) => !['/setup/:link', '/setup/:link/status', '/setup/:link/:action', 'refused'].includes(String(l)),
          ),
        ).to.deep.equal([]);
        const statusSeries = values.filter(
          (v) => v.metricName === 'http_request_duration_seconds_count' && v.labels.route === '/setup/:link/status',
        );
        expect(
          statusSeries.map((v) => v.labels.status_code).sort(),
          'one series per status, whatever the spelling',
        ).to.deep.equal(['200']);
      } finally {
        await page.close();
      }
    });

    it('requests without a credential take no lock and log nothing, on any directory id', async () => {
      svc = await startLimited(await openStore(kind, DB), { plan: 'enterprise' });
      const rnd = seeded(SEED);
      const ids = Array.from({ length: 20 }, () => Math.floor(rnd() * 2 ** 32).toString(16));
      const create = (id: string) =>
        send(svc!.url, 'POST', `/api/scim/v2.0/${id}/Users`, { authorization: 'Bearer guess' }, { userName: 'a@b.c' });
      // Two at once per id: the second would be a report-only violation if the first had taken a lock.
      const statuses = await Promise.all(ids.flatMap((id) => [create(id), create(id)]));
      expect(statuses.every((s) => s === 404)).to.equal(true);
      for (const outcome of ['allowed', 'limited', 'report_only'])
        expect(await svc.decisions('scim', 'inflight', outcome), outcome).to.equal(0);
      expect(svc.logs.filter((l) => Number(l.level) >= 40)).to.deep.equal([]);
    });
  });
}

describe("the route label takes only the route table's values", function () {
  this.timeout(30_000);

  it('32 casings of two paths × 16 methods, with credentials and without, add a bounded number of series', async () => {
    const svc = await startService(await openStore('memory'));
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    try {
      const dir = await svc.createDirectory();
      const methods = [
        'GET',
        'HEAD',
        'POST',
        'PUT',
        'PATCH',
        'DELETE',
        'OPTIONS',
        'PROPFIND',
        'MKCOL',
        'COPY',
        'MOVE',
        'LOCK',
        'UNLOCK',
        'SEARCH',
        'PURGE',
        'REPORT',
      ];
      const scim = spellings(`/api/scim/v2.0/${dir.id}/Users`, 32, SEED, { structural: false, ids: [dir.id] });
      const api = spellings(`/api/v1/directory-sync/${dir.id}`, 32, SEED, { structural: false, ids: [dir.id] });
      const sent = (headers: Record<string, string>, paths: string[]) =>
        methods.flatMap((m) => paths.map((p) => send(svc.url, m, p, headers, undefined, agent)));
      await Promise.all([
        ...sent({ authorization: `Bearer ${dir.scim.secret}` }, scim),
        ...sent({ authorization: 'Api-Key test-api-key' }, api),
        ...sent({}, [...scim, ...api]),
      ]);
      const { values } = await svc.dsync.metrics.httpDuration.get();
      const series = new Set(
        values
          .filter((v) => v.metricName === 'http_request_duration_seconds_count')
          .map((v) => JSON.stringify(v.labels)),
      );
      const routes = new Set(values.map((v) => v.labels.route));
      routes.delete('/api/v1/directory-sync'); // the directory's creation
      // Every spelling that reaches a handler takes its route's one label; the rest are refused before one.
      expect([...routes].sort()).to.deep.equal(['/api/v1/directory-sync/:id', 'refused', 'scim/users']);
      // 3 labels × 8 methods (7 and `other`) × the few statuses they answer (200, 201, 204, 400, 401, 404, 405…),
      // against 2,048 requests.
      expect(series.size).to.be.at.most(3 * 8 * 4);
    } finally {
      agent.destroy();
      await svc.close();
    }
  });

  it('the sync-run routes of both providers: any spelling of a run reads that run, under its one route label', async () => {
    const svc = await startService(await openStore('memory'));
    const key = { authorization: 'Api-Key test-api-key' };
    try {
      for (const provider of ['google', 'microsoft']) {
        const started = await fetch(`${svc.url}/api/v1/dsync/cron/sync-${provider}`, {
          method: 'POST',
          headers: { ...key, prefer: 'respond-async' },
        });
        expect(started.status, provider).to.equal(202);
        const location = started.headers.get('location')!;
        const id = location.split('/').pop()!;
        const statuses = await Promise.all(
          spellings(location, 24, SEED, { structural: false, ids: [id] }).map((p) => send(svc.url, 'GET', p, key)),
        );
        // A fixed segment percent-encoded is another path to express (404); every other spelling is the run.
        expect(
          statuses.filter((s) => s !== 200 && s !== 404),
          statuses.join(' '),
        ).to.deep.equal([]);
        expect(statuses.filter((s) => s === 200).length, statuses.join(' ')).to.be.greaterThan(12);
      }
      const { values } = await svc.dsync.metrics.httpDuration.get();
      const routes = new Set(values.map((v) => v.labels.route).filter((r) => String(r).includes('cron')));
      expect([...routes].sort()).to.deep.equal([
        '/api/v1/dsync/cron/sync-google',
        '/api/v1/dsync/cron/sync-google/:runId',
        '/api/v1/dsync/cron/sync-microsoft',
        '/api/v1/dsync/cron/sync-microsoft/:runId',
      ]);
    } finally {
      await svc.close();
    }
  });

  it('the routes without credentials (the OAuth start link, both callbacks, Graph notifications, the setup page) take their own labels only', async () => {
    const svc = await startService(await openStore('memory'));
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    try {
      const methods = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'];
      const templates = [
        '/api/v1/dsync/oauth/start/x',
        '/api/v1/dsync/google/callback',
        '/api/v1/dsync/microsoft/callback',
        '/api/v1/dsync/microsoft/notifications',
        '/setup/x',
        '/setup/x/status',
        '/setup/x/scim-tokens',
      ];
      const paths = templates.flatMap((t) => [t, ...spellings(t, 24, SEED, { structural: false, ids: ['x'] })]);
      const statuses = await Promise.all(
        methods.flatMap((m) => paths.map((p) => send(svc.url, m, p, {}, undefined, agent))),
      );
      expect(
        statuses.filter((s) => s >= 500),
        'no fault',
      ).to.deep.equal([]);
      const { values } = await svc.dsync.metrics.httpDuration.get();
      const routes = new Set(values.map((v) => v.labels.route));
      // A link, state or clientState that does not check out is refused before a handler: one label for all of them
      // (Graph's notifications take theirs once a batch parses, unless the failures before it blocked this address).
      expect([...routes].filter((r) => r !== '/api/v1/dsync/microsoft/notifications')).to.deep.equal(['refused']);
      expect(JSON.stringify(values), 'no link or token is a label').not.to.match(/[A-Za-z0-9_-]{43}/);
      const series = values.filter((v) => v.metricName === 'http_request_duration_seconds_count');
      // 2 labels × 8 methods × the few statuses they answer (400, 404, 405, 410, 429, 202/200, 415…), against 1,400
      // requests.
      expect(series.length).to.be.at.most(2 * 8 * 4);
    } finally {
      agent.destroy();
      await svc.close();
    }
  });
});
