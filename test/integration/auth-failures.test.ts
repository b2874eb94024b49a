/**
 * Failed authentications are limited per client address and in total per realm, before
 * any key is compared, for the Api-Key and the SCIM bearer token alike; counted on the store's Redis across
 * replicas; logged without the presented value.
 */
import { expect } from 'chai';
import { MemoryStore } from '../../src/store/memory/users-groups.js';
import type { AuthFailureLimits } from '../../src/ratelimit/auth-failures.js';
import { API_KEY, capturedLogger, startService, type Service } from '../support/harness.js';
import { freshRedisStore } from '../support/services.js';
import { redisClientOf } from '../../src/store/open-store.js';

const DB = 15;
const GUESS = 'not-the-key-0123456789';

describe('failed authentications are limited before any compare', function () {
  this.timeout(20_000);
  const services: Service[] = [];
  afterEach(async () => {
    await Promise.all(services.splice(0).map((s) => s.close()));
  });

  async function start(
    limits?: AuthFailureLimits,
    extra: { store?: MemoryStore | Awaited<ReturnType<typeof freshRedisStore>> } = {},
  ) {
    const { logger, lines } = capturedLogger();
    const store = extra.store ?? new MemoryStore();
    const redis = redisClientOf(store);
    const svc = await startService(
      store,
      {},
      { logger, trustProxy: true, authFailures: { ...(limits && { limits }), ...(redis && { redis }) } },
    );
    services.push(svc);
    return { svc, lines };
  }
  const get = (svc: Service, key: string, from = '198.51.100.7') =>
    fetch(`${svc.url}/api/v1/directory-sync?tenant=acme&product=app`, {
      headers: { authorization: `Api-Key ${key}`, 'x-forwarded-for': from },
    });
  const failures = async (svc: Service, api: string, outcome: string) =>
    (await svc.dsync.metrics.authFailures.get()).values.find(
      (v) => v.labels.api === api && v.labels.outcome === outcome,
    )?.value ?? 0;

  it('management: 20 quick wrong keys are 10 × 401 then 429 with Retry-After, the right key too, and no key in the log', async () => {
    const { svc, lines } = await start();
    const statuses = [];
    for (let i = 0; i < 20; i++) statuses.push((await get(svc, `${GUESS}${i}`)).status);
    expect(statuses).to.deep.equal([...Array(10).fill(401), ...Array(10).fill(429)]);
    const refused = await get(svc, API_KEY);
    expect(refused.status, 'blocked before the compare: the right key is refused too').to.equal(429);
    expect(Number(refused.headers.get('retry-after'))).to.be.within(1, 60);
    const body = (await refused.json()) as any;
    expect(body).to.deep.include({ data: null });
    expect(body.error).to.include({ code: 429 });
    expect(body.error.message).to.match(/^Too many failed authentication attempts; retry after \d+ s$/);
    // Another client is not blocked by this one.
    expect((await get(svc, API_KEY, '203.0.113.9')).status).to.equal(200);
    expect(await failures(svc, 'management', 'failed')).to.equal(10);
    expect(await failures(svc, 'management', 'refused')).to.equal(11);
    const warned = lines.filter(
      (l) => l.msg === 'authentication failures over the limit: refusing before comparing credentials',
    );
    expect(warned).to.have.length(1);
    expect(warned[0]).to.include({ client: '198.51.100.7', realm: 'api', scope: 'address' });
    expect(JSON.stringify(lines)).to.not.include(GUESS);
  });

  it('in total: once the realm is over, each address that fails is refused; an address that has not failed is not', async () => {
    const { svc, lines } = await start({ perAddress: 100, total: 5 });
    for (let i = 1; i <= 5; i++) expect((await get(svc, GUESS, `198.51.100.${i}`)).status).to.equal(401);
    expect((await get(svc, API_KEY, '198.51.100.99')).status, 'an address that has not failed').to.equal(200);
    expect((await get(svc, API_KEY, '198.51.100.5')).status, 'the address whose failure went over').to.equal(429);
    // An address that failed before the realm went over gets one more failure, then waits for the window's end.
    expect((await get(svc, GUESS, '198.51.100.1')).status).to.equal(401);
    expect((await get(svc, GUESS, '198.51.100.1')).status).to.equal(429);
    expect((await get(svc, API_KEY, '198.51.100.1')).status, 'blocked before the compare: the right key too').to.equal(
      429,
    );
    // The SCIM realm of a directory is another realm.
    const dir = await svc.dsync.directories.create({
      name: 'A',
      tenant: 'acme',
      product: 'app',
      type: 'generic-scim-v2',
    });
    expect((await svc.scim(dir, 'GET', '/Users', undefined, { 'x-forwarded-for': '198.51.100.5' })).status).to.equal(
      200,
    );
    const warned = lines.filter((l) => l.scope === 'total');
    expect(warned, 'one warning for the realm').to.have.length(1);
    expect(warned[0]).to.include({ realm: 'api', client: '198.51.100.5' });
  });

  it('SCIM: wrong bearer tokens are limited per client and per directory, answered as SCIM errors', async () => {
    const { svc } = await start({ perAddress: 10, total: 15 });
    const dir = await svc.dsync.directories.create({
      name: 'A',
      tenant: 'acme',
      product: 'app',
      type: 'generic-scim-v2',
    });
    const other = await svc.dsync.directories.create({
      name: 'B',
      tenant: 'beta',
      product: 'app',
      type: 'generic-scim-v2',
    });
    const guess = (from: string, d = dir) =>
      svc.scim({ id: d.id, scim: { secret: GUESS } }, 'GET', '/Users', undefined, { 'x-forwarded-for': from });
    const statuses = [];
    for (let i = 0; i < 12; i++) statuses.push((await guess('198.51.100.7')).status);
    expect(statuses).to.deep.equal([...Array(10).fill(401), 429, 429]);
    const refused = await svc.scim(dir, 'GET', '/Users', undefined, { 'x-forwarded-for': '198.51.100.7' });
    expect(refused.status).to.equal(429);
    expect(refused.headers.get('content-type')).to.match(/^application\/scim\+json/);
    expect(refused.body).to.include({ status: '429' });
    expect(refused.body.detail).to.match(/Too many failed authentication attempts/);
    // Five more from other addresses reach the directory's total of 15: the last of them is refused from then on,
    // an address that has not failed is not, and the other directory is untouched.
    for (let i = 1; i <= 5; i++) expect((await guess(`203.0.113.${i}`)).status).to.equal(401);
    expect((await guess('203.0.113.5')).status).to.equal(429);
    expect((await svc.scim(dir, 'GET', '/Users', undefined, { 'x-forwarded-for': '192.0.2.1' })).status).to.equal(200);
    expect((await svc.scim(other, 'GET', '/Users', undefined, { 'x-forwarded-for': '192.0.2.1' })).status).to.equal(
      200,
    );
    expect(await failures(svc, 'scim', 'failed')).to.equal(15);
  });

  it('SCIM during a rotation (two working tokens): both pass without a count; a wrong one and the revoked old one are failures, and past the limit neither working token is compared', async () => {
    const { svc, lines } = await start({ perAddress: 4, total: 100 });
    const dir = await svc.dsync.directories.create({
      name: 'A',
      tenant: 'acme',
      product: 'app',
      type: 'generic-scim-v2',
    });
    const second = await svc.dsync.scimTokens.create(dir.id);
    const withToken = (secret: string, from = '198.51.100.7') =>
      svc.scim({ id: dir.id, scim: { secret } }, 'GET', '/Users', undefined, { 'x-forwarded-for': from });
    for (const token of [dir.scim.secret, second.token, dir.scim.secret, second.token])
      expect((await withToken(token)).status).to.equal(200);
    expect(await failures(svc, 'scim', 'failed'), 'a working token is never a failure').to.equal(0);
    // The IdP moved to the second token; the old one is revoked and, presented again, is a wrong token.
    await svc.dsync.scimTokens.revoke(dir.id, 'scim-secret');
    const statuses = [];
    for (const token of [dir.scim.secret, GUESS, dir.scim.secret, `${second.token}x`])
      statuses.push((await withToken(token)).status);
    expect(statuses).to.deep.equal([401, 401, 401, 401]);
    expect(await failures(svc, 'scim', 'failed')).to.equal(4);
    const refused = await withToken(second.token);
    expect(refused.status, 'blocked before the compare: the working token is refused too').to.equal(429);
    expect(refused.body.detail).to.match(/Too many failed authentication attempts/);
    expect((await withToken(second.token, '203.0.113.9')).status, 'another client is not').to.equal(200);
    expect(JSON.stringify(lines)).to.not.include(dir.scim.secret).and.not.include(second.token).and.not.include(GUESS);
  });

  it('IPv6 clients count by their /64', async () => {
    const { svc } = await start({ perAddress: 3, total: 100 });
    for (const from of ['2001:db8:1:2::1', '2001:db8:1:2::2', '2001:db8:1:2:ffff::3'])
      expect((await get(svc, GUESS, from)).status).to.equal(401);
    expect((await get(svc, API_KEY, '2001:db8:1:2:abcd::9')).status).to.equal(429);
    expect((await get(svc, API_KEY, '2001:db8:1:3::1')).status).to.equal(200);
  });

  it('on Redis: two replicas share the counters', async () => {
    const a = (await start(undefined, { store: await freshRedisStore(DB) })).svc;
    const b = (await start(undefined, { store: await freshRedisStore(DB) })).svc;
    for (let i = 0; i < 6; i++) expect((await get(a, GUESS)).status).to.equal(401);
    for (let i = 0; i < 4; i++) expect((await get(b, GUESS)).status).to.equal(401);
    // B counted the 10th failure of this client: it refuses before comparing; A learns at its next failure.
    expect((await get(b, API_KEY)).status).to.equal(429);
    expect((await get(a, GUESS)).status).to.equal(401);
    expect((await get(a, API_KEY)).status).to.equal(429);
  });
});
