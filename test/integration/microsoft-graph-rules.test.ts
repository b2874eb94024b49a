/**
 * The Entra sync against a Graph stand-in that follows Microsoft's published rules (test/support/fake-entra: each
 * rule cites its page): subscriptions Graph accepts (`updated,deleted` on users and groups, an expiration within
 * the directory maximum, https URLs, a clientState of at most 128 characters); a subscription Graph refuses shown
 * on its own in the status and metrics with Graph's message, the run itself a success, retried with backoff; and
 * restored users and Microsoft 365 groups coming back whole (the object, then its memberships, in the same run),
 * though the groups' delta does not tell their memberships.
 */
import { expect } from 'chai';
import { MAX_MINUTES } from '../support/fake-entra/subscriptions.js';
import type { Tenant } from '../support/fake-entra/index.js';
import { startEntraTest, TENANT_A, type EntraTest } from '../support/entra-harness.js';
import { openStore, sleep, STORE_KINDS } from '../support/harness.js';

const metric = async (t: EntraTest, name: string) =>
  (await t.service.dsync.metrics.registry.getSingleMetricAsString(name)) ?? '';

for (const kind of STORE_KINDS) {
  describe(`Microsoft Entra ID as Graph behaves (${kind} store)`, function () {
    this.timeout(30_000);
    let t: EntraTest;
    let tenant: Tenant;

    afterEach(() => t?.close());

    describe('subscriptions', () => {
      beforeEach(async () => {
        t = await startEntraTest(await openStore(kind, 9), { notificationDelayMs: 200 }, { https: true });
        tenant = t.tenant();
        tenant.addUser();
      });

      it('are made as Graph accepts them: updated,deleted on users and groups, an expiration within 41,760 minutes, https URLs, clientState ≤ 128', async () => {
        const dir = await t.directory();
        const report = await t.sync();
        expect(report.failed).to.equal(0);
        expect(
          t.fake.subscriptions.refused.map((r) => (r.reply.body as any).error.message),
          'nothing refused',
        ).to.deep.equal([]);
        const subs = [...t.fake.subscriptions.all.values()];
        expect(subs.map((s) => `${s.resource}:${s.changeType}`).sort()).to.deep.equal([
          'groups:updated,deleted',
          'users:updated,deleted',
        ]);
        for (const s of subs) {
          expect(s.notificationUrl).to.match(/^https:\/\//);
          expect(s.lifecycleNotificationUrl).to.match(/^https:\/\//);
          expect(s.clientState!.length).to.be.at.most(128);
          expect(Date.parse(s.expirationDateTime) - Date.now()).to.be.below(MAX_MINUTES * 60_000);
        }
        const status = await t.status(dir.id);
        expect(status.state).to.equal('succeeded');
        expect(status.notifications).to.deep.include({ state: 'active', error: null });
        // A creation is notified as `updated` (Graph has no `created` for users): it reaches dsync and syncs.
        const added = tenant.addUser();
        const deadline = Date.now() + 5000;
        while (!(await t.service.dsync.store.getUser(dir.id, added.id)) && Date.now() < deadline) await sleep(50);
        expect(await t.service.dsync.store.getUser(dir.id, added.id), 'the notified creation synced').to.not.equal(
          null,
        );
      });

      it("a subscription Graph refuses: the run succeeds, the notifications state says Graph's message, the metrics count it, and it is tried again with backoff", async () => {
        const dir = await t.directory();
        // Graph cannot validate the notification URL (the handshake times out), for a while.
        t.fake.subscriptions.validationTimeoutMs = 0;
        const report = await t.sync();
        expect(report.failed, 'the users and groups synced: not a failed run').to.equal(0);
        expect(report.directories[0].state).to.equal('succeeded');
        const status = await t.status(dir.id);
        expect(status.state).to.equal('succeeded');
        expect(status.error).to.equal(null);
        expect(status.last_success_at).to.be.a('string');
        expect(status.notifications.state).to.equal('failed');
        // Graph's own words; the notification or the lifecycle URL's handshake fails first, as the zero timeout races.
        expect(status.notifications.error).to.match(
          /Subscription validation request failed\. (Lifecycle notification|Notification) endpoint must respond with 200 OK to validation request\./,
        );
        expect(status.notifications.retry_at).to.be.a('string');
        expect(await metric(t, 'dsync_microsoft_subscriptions')).to.match(/state="failed"} 1/);
        expect(await metric(t, 'dsync_microsoft_directories'))
          .to.match(/state="succeeded"} 1/)
          .and.not.match(/state="failed"} 1/);
        expect(await metric(t, 'dsync_microsoft_subscription_requests_total')).to.match(/outcome="refused"} 1/);
        // Before the backoff ends, a run does not ask Graph again.
        const refusals = t.fake.subscriptions.refused.length;
        await t.sync();
        expect(t.fake.subscriptions.refused.length, 'no new request inside the backoff').to.equal(refusals);
        expect((await t.status(dir.id)).notifications.state).to.equal('failed');
        // Graph accepts again; once the backoff is over, the next attempt subscribes.
        t.fake.subscriptions.validationTimeoutMs = 10_000;
        await t.service.dsync.microsoft.subscribe(dir.id);
        const after = await t.status(dir.id);
        expect(after.notifications).to.deep.include({ state: 'active', error: null, retry_at: null });
        expect([...t.fake.subscriptions.all.values()]).to.have.length(2);
        expect(await metric(t, 'dsync_microsoft_subscriptions')).to.match(/state="active"} 1/);
      });
    });

    describe('subscription retries', () => {
      it('a refused subscription is tried again by itself when its backoff ends, doubling while Graph keeps refusing', async () => {
        t = await startEntraTest(
          await openStore(kind, 9),
          { subscriptionRetryMs: 300, subscriptionRetryMaxMs: 5_000 },
          { https: true },
        );
        t.tenant().addUser();
        const dir = await t.directory();
        t.fake.subscriptions.validationTimeoutMs = 0;
        const before = Date.now();
        await t.sync();
        const first = await t.status(dir.id);
        expect(first.notifications.state).to.equal('failed');
        expect(Date.parse(first.notifications.retry_at), 'the first backoff: subscriptionRetryMs').to.be.within(
          before + 300,
          Date.now() + 300,
        );
        // The timer's attempt is refused too: the next one is twice as far.
        const deadline = Date.now() + 5000;
        while (t.fake.subscriptions.refused.length < 2 && Date.now() < deadline) await sleep(25);
        // The refusal is recorded after Graph answers it: read until the new retry time is there.
        let second = await t.status(dir.id);
        while (second.notifications.retry_at === first.notifications.retry_at && Date.now() < deadline) {
          await sleep(25);
          second = await t.status(dir.id);
        }
        expect(second.notifications.state).to.equal('failed');
        expect(Date.parse(second.notifications.retry_at)).to.be.greaterThan(Date.parse(first.notifications.retry_at));
        // Graph accepts again: the next timer subscribes, with no sync run and no call of ours.
        t.fake.subscriptions.validationTimeoutMs = 10_000;
        while ((await t.status(dir.id)).notifications.state !== 'active' && Date.now() < deadline + 5000)
          await sleep(50);
        expect((await t.status(dir.id)).notifications).to.deep.include({
          state: 'active',
          error: null,
          retry_at: null,
        });
        expect([...t.fake.subscriptions.all.values()].map((s) => s.resource).sort()).to.deep.equal(['groups', 'users']);
        expect(await metric(t, 'dsync_microsoft_subscription_requests_total')).to.match(/outcome="created"} 2/);
      });
    });

    describe('restore', () => {
      beforeEach(async () => {
        t = await startEntraTest(await openStore(kind, 9));
        tenant = t.tenant();
      });

      it('a restored user comes back with its memberships: the user, then its groups, in the same delta run', async () => {
        const ann = tenant.addUser();
        const bob = tenant.addUser();
        const sales = tenant.addGroup({ displayName: 'Sales' });
        const eng = tenant.addGroup({ displayName: 'Engineering' });
        tenant.addMember(sales.id, ann.id);
        tenant.addMember(eng.id, ann.id);
        tenant.addMember(eng.id, bob.id);
        const dir = await t.directory();
        await t.sync();
        await t.newEvents(dir.id);
        tenant.removeUser(ann.id);
        await t.sync();
        expect((await t.newEvents(dir.id)).map((e) => e.event).sort()).to.deep.equal([
          'group.user_removed',
          'group.user_removed',
          'user.deleted',
        ]);
        tenant.restoreUser(ann.id);
        const report = await t.sync();
        expect(report.directories[0]).to.deep.include({ state: 'succeeded' });
        const events = await t.newEvents(dir.id);
        const named = events.map((e) => `${e.event}${e.data.group ? `:${e.data.group.name}` : ''}`);
        expect(named[0], 'the user first').to.equal('user.created');
        expect(named.slice(1).sort(), 'then its groups').to.deep.equal([
          'group.user_added:Engineering',
          'group.user_added:Sales',
        ]);
        for (const g of [sales, eng])
          expect((await t.service.dsync.store.groupMemberIds(dir.id, g.id, 0, 10)).items).to.include(ann.id);
      });

      it('a user deleted and restored between two runs keeps its memberships', async () => {
        const ann = tenant.addUser();
        const sales = tenant.addGroup({ displayName: 'Sales' });
        tenant.addMember(sales.id, ann.id);
        const dir = await t.directory();
        await t.sync();
        await t.newEvents(dir.id);
        tenant.removeUser(ann.id);
        tenant.restoreUser(ann.id);
        await t.sync();
        expect(await t.newEvents(dir.id), 'nothing changed for the directory').to.deep.equal([]);
        expect((await t.service.dsync.store.groupMemberIds(dir.id, sales.id, 0, 10)).items).to.deep.equal([ann.id]);
      });

      it("a restored Microsoft 365 group comes back with its members, even when the groups' delta does not tell them: the group, then its members, in the same delta run", async () => {
        tenant.restoredGroupsWithoutMembers = true;
        const ann = tenant.addUser();
        const bob = tenant.addUser();
        const team = tenant.addGroup({
          displayName: 'Team',
          groupTypes: ['Unified'],
          mailEnabled: true,
          securityEnabled: false,
        });
        tenant.addMember(team.id, ann.id);
        tenant.addMember(team.id, bob.id);
        const dir = await t.directory();
        await t.sync();
        tenant.removeGroup(team.id);
        await t.sync();
        await t.newEvents(dir.id);
        tenant.restoreGroup(team.id);
        await t.sync();
        const events = await t.newEvents(dir.id);
        expect(events.map((e) => e.event)).to.deep.equal(['group.created', 'group.user_added', 'group.user_added']);
        expect((await t.service.dsync.store.groupMemberIds(dir.id, team.id, 0, 10)).items.sort()).to.deep.equal(
          [ann.id, bob.id].sort(),
        );
      });

      // Found by the model-based test (microsoft-model.test.ts): the groups' delta told a removal that a later
      // restore undid, for a user the run creates, and for one it already had.
      it('a user restored, deleted and restored again within one window is back in its groups', async () => {
        const ann = tenant.addUser();
        const sales = tenant.addGroup({ displayName: 'Sales' });
        tenant.addMember(sales.id, ann.id);
        const dir = await t.directory();
        await t.sync();
        tenant.removeUser(ann.id);
        await t.sync();
        tenant.restoreUser(ann.id);
        tenant.removeUser(ann.id);
        tenant.restoreUser(ann.id);
        await t.sync();
        expect((await t.service.dsync.store.groupMemberIds(dir.id, sales.id, 0, 10)).items).to.deep.equal([ann.id]);
      });

      it('a user added to a group, then deleted and restored within one window, is in the group', async () => {
        const ann = tenant.addUser();
        const bob = tenant.addUser();
        const sales = tenant.addGroup({ displayName: 'Sales' });
        tenant.addMember(sales.id, bob.id);
        const dir = await t.directory();
        await t.sync();
        tenant.addMember(sales.id, ann.id);
        tenant.removeUser(ann.id);
        tenant.removeMember(sales.id, bob.id);
        tenant.restoreUser(ann.id);
        await t.sync();
        expect((await t.service.dsync.store.groupMemberIds(dir.id, sales.id, 0, 10)).items).to.deep.equal([ann.id]);
      });

      it('a Microsoft 365 group whose members changed, then deleted and restored within one window, has its members', async () => {
        const ann = tenant.addUser();
        const bob = tenant.addUser();
        const team = tenant.addGroup({
          displayName: 'Team',
          groupTypes: ['Unified'],
          mailEnabled: true,
          securityEnabled: false,
        });
        tenant.addMember(team.id, ann.id);
        const dir = await t.directory();
        await t.sync();
        tenant.removeMember(team.id, ann.id);
        tenant.addMember(team.id, bob.id);
        tenant.removeGroup(team.id);
        tenant.restoreGroup(team.id);
        await t.sync();
        expect((await t.service.dsync.store.groupMemberIds(dir.id, team.id, 0, 10)).items).to.deep.equal([bob.id]);
      });

      it('with nested groups: a restored user is back in the outer groups too', async () => {
        const ann = tenant.addUser();
        const inner = tenant.addGroup({ displayName: 'Inner' });
        const outer = tenant.addGroup({ displayName: 'Outer' });
        tenant.addMember(inner.id, ann.id);
        tenant.addMember(outer.id, inner.id, 'group');
        const dir = await t.directory(TENANT_A, { microsoft_nested_groups: true });
        await t.sync();
        tenant.removeUser(ann.id);
        await t.sync();
        tenant.restoreUser(ann.id);
        await t.sync();
        for (const g of [inner, outer])
          expect((await t.service.dsync.store.groupMemberIds(dir.id, g.id, 0, 10)).items, g.displayName).to.deep.equal([
            ann.id,
          ]);
      });
    });
  });
}
