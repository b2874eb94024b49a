/**
 * A working IdP cannot be locked out by others' failures. A directory's id is in its SCIM URL, so anyone can send
 * it wrong tokens; when a realm's total of failures blocked the whole realm, ten addresses kept that directory's
 * IdP (and, with 100 wrong keys a minute, every client of the management API) at 429 for as long as they kept
 * trying. Now each address that fails is limited on its own, and a realm over its total only cuts the allowance of
 * the addresses that fail in it: a request with a valid credential, from an address that has not failed, always
 * reaches its compare.
 */
import { expect } from 'chai';
import { redisClientOf } from '../../src/store/open-store.js';
import { API_KEY, STORE_KINDS, openStore, startService, type Service } from '../support/harness.js';

/** Ten addresses; each test its own, since an address over its own limit is refused in every realm. */
const attackers = (net: number) => Array.from({ length: 10 }, (_, i) => `10.${net}.0.${i + 1}`);
const IDP = '198.51.100.20';
const BACKEND = '198.51.100.30';

for (const kind of STORE_KINDS) {
  describe(`no lock-out of a working client by others' failures (${kind} store)`, function () {
    this.timeout(60_000);
    let svc: Service;
    before(async () => {
      const store = await openStore(kind, 14);
      // As `dsync serve` does: default limits (10 a minute per address, 100 per realm), counted on the store's Redis.
      const redis = redisClientOf(store);
      svc = await startService(store, {}, { trustProxy: true, authFailures: { ...(redis && { redis }) } });
    });
    after(() => svc.close());

    const failures = async (api: string, outcome: string) =>
      (await svc.dsync.metrics.authFailures.get()).values.find(
        (v) => v.labels.api === api && v.labels.outcome === outcome,
      )?.value ?? 0;

    /** Each attacker address sends `tries` wrong credentials, one after another; the addresses side by side. */
    async function attack(
      from: string[],
      tries: number,
      send: (from: string, i: number) => Promise<number>,
    ): Promise<number[]> {
      const statuses = await Promise.all(
        from.map(async (from) => {
          const mine = [];
          for (let i = 0; i < tries; i++) mine.push(await send(from, i));
          return mine;
        }),
      );
      return statuses.flat();
    }

    it('failures from ten addresses against a directory: its IdP keeps answering 2xx; the addresses that fail are refused', async () => {
      const dir = await svc.createDirectory();
      const idp = (method: string, path: string, body?: unknown) =>
        svc.scim(dir, method, path, body, { 'x-forwarded-for': IDP });
      const ATTACKERS = attackers(1);
      let attacking = true;
      const guessing = attack(
        ATTACKERS,
        20,
        async (from, i) =>
          (
            await svc.scim({ id: dir.id, scim: { secret: `wrong-${from}-${i}` } }, 'GET', '/Users', undefined, {
              'x-forwarded-for': from,
            })
          ).status,
      ).finally(() => (attacking = false));
      // The IdP provisions while the attack runs, and once more after it.
      const answers: number[] = [];
      for (let n = 0; attacking || n < 5; n++) {
        const created = await idp('POST', '/Users', { userName: `u${n}@acme.io`, active: true });
        answers.push(created.status);
        answers.push(
          (
            await idp('PATCH', `/Users/${created.body.id}`, {
              schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
              Operations: [{ op: 'replace', path: 'active', value: false }],
            })
          ).status,
        );
        answers.push((await idp('GET', '/Users?count=5')).status);
      }
      const statuses = await guessing;
      expect(answers.length).to.be.at.least(15);
      expect(
        answers.filter((s) => s < 200 || s > 299),
        `the IdP's answers: ${answers.join(' ')}`,
      ).to.deep.equal([]);
      expect(
        statuses.filter((s) => s !== 401 && s !== 429),
        'the guesses',
      ).to.deep.equal([]);
      // Ten addresses × their own limit of 10 reach the directory's total of 100; every later guess is refused
      // before its compare.
      expect(statuses.filter((s) => s === 401)).to.have.length(100);
      expect(
        (await svc.scim(dir, 'GET', '/Users', undefined, { 'x-forwarded-for': ATTACKERS[0]! })).status,
        'an attacker, with the right token',
      ).to.equal(429);
      expect((await idp('GET', '/Users')).status).to.equal(200);
    });

    it("past the directory's total, each address that fails is refused after one failure", async () => {
      const dir = await svc.createDirectory();
      const guess = (from: string) =>
        svc.scim({ id: dir.id, scim: { secret: 'wrong' } }, 'GET', '/Groups', undefined, { 'x-forwarded-for': from });
      // 100 failures from ten addresses (each at its own limit) put the directory over its total.
      await attack(attackers(2), 10, async (from) => (await guess(from)).status);
      for (let i = 1; i <= 5; i++) {
        const from = `192.0.2.${i}`;
        expect((await guess(from)).status, `${from}'s first failure`).to.equal(401);
        expect((await guess(from)).status, `${from}, refused from then on`).to.equal(429);
      }
      expect(
        (await svc.scim(dir, 'GET', '/Groups', undefined, { 'x-forwarded-for': '192.0.2.99' })).status,
        'an address that has not failed',
      ).to.equal(200);
    });

    it('wrong keys from ten addresses: the management API keeps answering a valid key from another address', async () => {
      const before = await failures('management', 'failed');
      const headers = (key: string, from: string) => ({ authorization: `Api-Key ${key}`, 'x-forwarded-for': from });
      let attacking = true;
      const guessing = attack(
        attackers(3),
        20,
        async (from, i) =>
          (
            await fetch(`${svc.url}/api/v1/directory-sync?tenant=acme&product=app`, {
              headers: headers(`wrong-${i}`, from),
            })
          ).status,
      ).finally(() => (attacking = false));
      const answers: number[] = [];
      for (let n = 0; attacking || n < 5; n++)
        answers.push(
          (
            await fetch(`${svc.url}/api/v1/directory-sync?tenant=acme&product=app`, {
              headers: headers(API_KEY, BACKEND),
            })
          ).status,
        );
      const statuses = await guessing;
      expect(
        answers.filter((s) => s !== 200),
        `the backend's answers: ${answers.join(' ')}`,
      ).to.deep.equal([]);
      expect(statuses.filter((s) => s === 401)).to.have.length(100);
      expect((await failures('management', 'failed')) - before).to.equal(100);
    });
  });
}
