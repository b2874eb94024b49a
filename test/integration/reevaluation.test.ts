/**
 * The evaluation of every user after a mapping change, past what a PATCH waits for: answered `running`, going on
 * in the background with its progress in the directory's `reevaluation` status, `done` with its counts; run
 * again by the next process to start when the one running it stopped; stopped by a newer change. On both stores.
 */
import { expect } from 'chai';
import { runningSince } from '../../src/core/reevaluations.js';
import type { Store } from '../../src/core/store-port.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { seedUsers } from '../support/big-group.js';
import { eventReader, openStore, STORE_KINDS, type Service, startService, until } from '../support/harness.js';
import { redisUrl } from '../support/services.js';

const USERS = 2500;

for (const kind of STORE_KINDS) {
  describe(`user re-evaluation after a mapping change (${kind} store)`, function () {
    this.timeout(120_000);
    let store: Store;
    let svc: Service | undefined;
    let events: (directoryId: string) => Promise<any[]>;
    beforeEach(async () => {
      store = await openStore(kind, 10);
      events = eventReader(store);
    });
    afterEach(async () => {
      await svc?.close();
      svc = undefined;
    });

    const read = async (s: Service, id: string) => (await s.api('GET', `/api/v1/directory-sync/${id}`)).body.data;
    const doneIn = async (s: Service, id: string) => {
      await until(async () => (await read(s, id)).reevaluation?.state === 'done', 'the evaluation done', 60_000);
      return (await read(s, id)).reevaluation;
    };
    const updatedUsers = async (directoryId: string) => {
      const log = await events(directoryId);
      expect(log.every((e) => e.event === 'user.updated')).to.equal(true);
      return log.map((e) => e.data.id as string);
    };

    it('a PATCH answers `running` past its wait; the pass goes on, reports progress, and ends `done` with one user.updated per user', async () => {
      svc = await startService(store, { reevaluationWaitMs: 0 });
      const d = await svc.createDirectory();
      expect(d).to.not.have.property('reevaluation');
      const ids = await seedUsers(store, d.id, USERS);
      const res = await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, {
        attribute_mapping: { login: 'userName' },
      });
      expect(res.status).to.equal(200);
      expect(res.body.data.reevaluation).to.include({ state: 'running', users_evaluated: 0, users_updated: 0 });
      const status = await doneIn(svc, d.id);
      expect(status).to.include({
        state: 'done',
        users_evaluated: USERS,
        users_updated: USERS,
        started_at: res.body.data.reevaluation.started_at,
      });
      expect(Date.parse(status.finished_at)).to.be.at.least(Date.parse(status.started_at));
      expect((await updatedUsers(d.id)).sort()).to.deep.equal([...ids].sort());
      const user = (await svc.api('GET', `/api/v1/directory-sync/users/${ids[7]}?directoryId=${d.id}`)).body.data;
      expect(user.custom_attributes).to.deep.equal({ login: `${ids[7]}@acme.io` });
    });

    it('a small directory is evaluated before the PATCH answers, which says `done`', async () => {
      svc = await startService(store);
      const d = await svc.createDirectory();
      await seedUsers(store, d.id, 3);
      const res = await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, {
        role_mapping: { default_role: 'member', rules: [] },
      });
      expect(res.body.data.reevaluation).to.include({ state: 'done', users_evaluated: 3, users_updated: 3 });
      expect(await updatedUsers(d.id)).to.have.length(3);
      // A PATCH that changes no mapping leaves the status as it was.
      const renamed = await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, { name: 'Renamed' });
      expect(renamed.body.data.reevaluation).to.deep.equal(res.body.data.reevaluation);
    });

    it('a pass a stopped process left running is run again by the next process to start, each change emitted once', async () => {
      svc = await startService(store);
      const d = await svc.createDirectory();
      const ids = await seedUsers(store, d.id, USERS);
      // A first mapping, evaluated to the end.
      await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, { attribute_mapping: { login: 'userName' } });
      expect(await updatedUsers(d.id)).to.have.length(USERS);
      await svc.close();
      svc = undefined;
      // A process that wrote the next change and stopped before its pass went far: the status says `running`.
      const again = kind === 'memory' ? store : new RedisStore(`${redisUrl()}/10`);
      events = eventReader(again);
      await events(d.id);
      const stopped = (await again.getDirectory(d.id))!;
      await again.updateDirectory({
        ...stopped,
        attribute_mapping: { login: 'userName', badge: 'userName' },
        reevaluation: runningSince(new Date()),
      });
      svc = await startService(again);
      const status = await doneIn(svc, d.id);
      expect(status).to.include({ users_evaluated: USERS, users_updated: USERS });
      const all = await updatedUsers(d.id);
      expect(new Set(all).size, 'one user.updated per user').to.equal(USERS);
      expect(all).to.have.length(USERS);
      for (const id of ids.slice(0, 20)) {
        const u = (await svc.api('GET', `/api/v1/directory-sync/users/${id}?directoryId=${d.id}`)).body.data;
        expect(u.custom_attributes, id).to.deep.equal({ login: `${id}@acme.io`, badge: `${id}@acme.io` });
      }
    });

    it('a newer mapping change stops the running pass; the newer one ends done and the users hold its values', async () => {
      svc = await startService(store, { reevaluationWaitMs: 0 });
      const d = await svc.createDirectory();
      const ids = await seedUsers(store, d.id, USERS);
      const first = await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, {
        attribute_mapping: { login: 'userName' },
      });
      const second = await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, {
        attribute_mapping: { name: 'userName' },
      });
      expect(second.body.data.reevaluation.started_at >= first.body.data.reevaluation.started_at).to.equal(true);
      const status = await doneIn(svc, d.id);
      expect(status.started_at).to.equal(second.body.data.reevaluation.started_at);
      for (const id of ids.slice(-20)) {
        const u = (await svc.api('GET', `/api/v1/directory-sync/users/${id}?directoryId=${d.id}`)).body.data;
        expect(u.custom_attributes, id).to.deep.equal({ name: `${id}@acme.io` });
      }
    });
  });
}
