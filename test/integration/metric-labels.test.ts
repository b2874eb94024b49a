/**
 * The HTTP histogram's labels come from fixed sets, whatever a client sends. Node accepts 34 methods; with the
 * method taken as sent, times every status and every route template, about 4,000 unauthenticated requests grew
 * /metrics from 19 KB to 4 MB (2,457 series): past a Prometheus scrape's `sample_limit`, which drops the whole
 * scrape and every alert with it. Now `method` is one of seven or `other`, and a request refused before its
 * route's handler (no or a wrong credential, a method the path does not serve, an unknown path) takes the one
 * route label `refused`. A sweep of every method over every route, without a credential and with a wrong one,
 * adds under 50 series.
 */
import { METHODS, request as httpRequest, Agent } from 'node:http';
import { expect } from 'chai';
import { appTemplates } from '../../src/http/app.js';
import type { RedisStore } from '../../src/store/redis/users-groups.js';
import { STORE_KINDS, openStore, startService, type Service } from '../support/harness.js';

const FIXED_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'other'];

/**
 * Raw HTTP, any method (fetch refuses some); resolves with the status, or 0 when the server drops the request
 * (CONNECT).
 */
function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  agent: Agent,
): Promise<number> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const req = httpRequest({ hostname, port, method, path, headers, agent, timeout: 10_000 });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('connect', (_res, socket) => (socket.destroy(), resolve(0)));
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(0));
    req.end();
  });
}

for (const kind of STORE_KINDS) {
  describe(`HTTP metric labels from fixed sets (${kind} store)`, function () {
    this.timeout(120_000);
    let svc: Service;
    let dir: any;
    before(async () => {
      const store = await openStore(kind, 12);
      // As `dsync serve` does: the failed authentications are counted on the store's Redis when there is one.
      const redis = kind === 'memory' ? undefined : (store as RedisStore).redis;
      svc = await startService(
        store,
        {},
        { authFailures: { limits: { perAddress: 10, total: 100 }, ...(redis && { redis }) } },
      );
      dir = await svc.createDirectory();
    });
    after(() => svc.close());

    const series = async () => {
      const { values } = await svc.dsync.metrics.httpDuration.get();
      return values
        .filter((v) => v.metricName === 'http_request_duration_seconds_count')
        .map((v) => v.labels as Record<string, string>);
    };

    it('an admitted request keeps its route and method; a refused one, its method and status only', async () => {
      const before = (await series()).length;
      expect((await svc.scim(dir, 'GET', '/Groups')).status).to.equal(200);
      expect((await svc.scim({ ...dir, scim: { secret: 'wrong' } }, 'GET', '/Groups')).status).to.equal(401);
      const purge = await new Promise<number>((resolve) => {
        const agent = new Agent();
        void send(
          svc.url,
          'PURGE',
          `/api/scim/v2.0/${dir.id}/Groups`,
          { authorization: `Bearer ${dir.scim.secret}` },
          agent,
        ).then((s) => (agent.destroy(), resolve(s)));
      });
      expect(purge, 'an unknown method, authenticated').to.equal(405);
      const labels = await series();
      expect(labels.length).to.be.greaterThan(before);
      expect(labels).to.deep.include({ route: 'scim/groups', method: 'GET', status_code: '200' });
      expect(labels).to.deep.include({ route: 'refused', method: 'GET', status_code: '401' });
      expect(labels).to.deep.include({ route: 'scim/groups', method: 'other', status_code: '405' });
    });

    it(`a sweep of all ${METHODS.length} methods over every route, without a credential and with a wrong one, adds under 50 series`, async () => {
      // What a working service shows first: health, an IdP's request, the management API.
      expect((await fetch(`${svc.url}/healthz`)).status).to.equal(200);
      expect((await svc.scim(dir, 'GET', '/Users')).status).to.equal(200);
      expect((await svc.api('GET', `/api/v1/directory-sync/${dir.id}`)).status).to.equal(200);
      const before = await series();
      const bytesBefore = (await svc.dsync.metrics.registry.metrics()).length;

      const paths = appTemplates().map((t) =>
        t.path.replace(/:(id|directoryId)\b/g, dir.id).replace(/:[A-Za-z]+/g, 'x'),
      );
      const wrong = (path: string) => ({
        authorization: path.startsWith('/api/scim/') ? 'Bearer wrong-token' : 'Api-Key wrong-key',
      });
      const agent = new Agent({ keepAlive: true, maxSockets: 8 });
      let statuses: number[];
      try {
        const sweep = (headers: (path: string) => Record<string, string>) =>
          Promise.all(
            METHODS.flatMap((method) => paths.map((path) => send(svc.url, method, path, headers(path), agent))),
          );
        statuses = [...(await sweep(() => ({}))), ...(await sweep(wrong))];
      } finally {
        agent.destroy();
      }
      expect(
        statuses.filter((s) => s >= 500),
        'no fault',
      ).to.deep.equal([]);
      expect(statuses.length).to.equal(2 * METHODS.length * paths.length);

      const after = await series();
      const bytesAfter = (await svc.dsync.metrics.registry.metrics()).length;
      const key = (labels: Record<string, string>) => JSON.stringify(labels);
      const known = new Set(before.map(key));
      const added = after.filter((labels) => !known.has(key(labels)));
      const described = added.map((l) => `${l.route} ${l.method} ${l.status_code}`).sort();
      expect(
        added.length,
        `${statuses.length} requests added ${added.length} series: ${described.slice(0, 30).join(', ')}…`,
      ).to.be.below(50);
      expect(new Set(after.map((l) => l.method)), 'method labels').to.satisfy((methods: Set<string>) =>
        [...methods].every((m) => FIXED_METHODS.includes(m)),
      );
      // What the sweep added is under `refused`, a route that needs no credential, or Graph's notifications (whose
      // credentials are inside each notification of a batch: a batch that parsed reached its handler).
      const open = new Set([
        ...appTemplates()
          .filter((t) => t.open)
          .map((t) => t.label ?? t.path),
        '/api/v1/dsync/microsoft/notifications',
      ]);
      expect(
        added.filter((l) => l.route !== 'refused' && !open.has(l.route!)).map(key),
        'authenticated routes untouched',
      ).to.deep.equal([]);
      expect(bytesAfter - bytesBefore, '/metrics grew by (bytes)').to.be.below(50 * 2000);
    });
  });
}
