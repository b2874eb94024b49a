// The DirectoryConnection reconciler against a real kube-apiserver and Redis, for spec.roleMapping and
// spec.attributeMapping: stored, and a change re-evaluates the directory's users in the background.
// It starts its own apiserver and operator, as each operator-*.test.ts file does.
import { expect } from 'chai';
import { GroupWriter } from '../../src/core/groups.js';
import { UserWriter } from '../../src/core/users.js';
import { EVENTS } from '../../src/operator/kube.js';
import type { Operator } from '../../src/operator/main.js';
import {
  connection,
  createConnection,
  getConnection,
  patchConnection,
  readyOf,
  startEnv,
  startOperator,
  waitFor,
  waitForReady,
  type Env,
} from './operator-harness.js';

describe('DirectoryConnection reconciler (real kube-apiserver + Redis)', function () {
  this.timeout(120_000);
  let env: Env;
  let operator: Operator;

  before(async () => {
    env = await startEnv();
    operator = startOperator(env);
  });

  after(async () => {
    await operator?.stop();
    await env?.stop();
  });

  it('spec.roleMapping: stored, and a change re-evaluates the users in the background (user.updated, the directory marked due)', async () => {
    const created = await createConnection(
      env,
      connection('roles', { roleMapping: { defaultRole: 'member', rules: [] } }),
    );
    await waitForReady(env, 'roles');
    const uid = created.metadata.uid!;
    const dir = await env.directories.get(uid);
    expect(dir.role_mapping).to.deep.equal({ default_role: 'member', rules: [] });
    const users = new UserWriter({ store: env.store, committed: () => undefined });
    const groups = new GroupWriter({
      store: env.store,
      committed: () => undefined,
      roles: (d, ids) => users.refreshRoles(d, ids),
    });
    const ann = await users.create(dir, { userName: 'ann@acme.io' });
    const bob = await users.create(dir, { userName: 'bob@acme.io' });
    await groups.create(dir, { displayName: 'Admins' }, [{ value: ann.id }]);
    expect((await env.store.getUser(uid, ann.id))?.roles).to.deep.equal(['member']);
    const logged = (await env.store.readEvents(uid, null, 1000)).length;
    await env.store.clearDue(uid);

    await patchConnection(env, 'roles', {
      spec: { roleMapping: { defaultRole: 'member', rules: [{ group: 'Admins', role: 'admin', priority: 1 }] } },
    });
    await waitFor(
      'ann re-evaluated as admin',
      async () => (await env.store.getUser(uid, ann.id))?.roles?.[0] === 'admin',
    );
    expect((await env.store.getUser(uid, bob.id))?.roles).to.deep.equal(['member']);
    const events = (await env.store.readEvents(uid, null, 1000)).slice(logged).map((e) => JSON.parse(e.json));
    expect(events.map((e) => [e.event, e.data.id, e.data.roles, e.previous_attributes?.roles])).to.deep.equal([
      ['user.updated', ann.id, ['admin'], ['member']],
    ]);
    await waitFor('the directory due for the serve replicas', async () =>
      (await env.store.dueDirectories(Date.now(), 100)).includes(uid),
    );
  });

  it('spec.attributeMapping: stored, a change re-evaluates the users in the background (user.updated), a source the core refuses is InvalidSpec', async () => {
    const badge = 'urn:ietf:params:scim:schemas:extension:acme:2.0:User:badge';
    const created = await createConnection(env, connection('attrs', { attributeMapping: { badge: '' } }));
    await waitForReady(env, 'attrs');
    const uid = created.metadata.uid!;
    const dir = await env.directories.get(uid);
    expect(dir.attribute_mapping).to.deep.equal({ badge: '' });
    const users = new UserWriter({ store: env.store, committed: () => undefined });
    const ann = await users.create(dir, {
      userName: 'ann@acme.io',
      'urn:ietf:params:scim:schemas:extension:acme:2.0:User': { badge: 'B-1' },
    });
    await users.create(dir, { userName: 'bob@acme.io' });
    const logged = (await env.store.readEvents(uid, null, 1000)).length;
    await env.store.clearDue(uid);

    await patchConnection(env, 'attrs', { spec: { attributeMapping: { badge } } });
    const events = await waitFor('ann re-evaluated', async () => {
      const after = (await env.store.readEvents(uid, null, 1000)).slice(logged).map((e) => JSON.parse(e.json));
      return after.length > 0 && after;
    });
    expect(
      events.map((e) => [e.event, e.data.id, e.data.custom_attributes, e.previous_attributes?.custom_attributes]),
    ).to.deep.equal([['user.updated', ann.id, { badge: 'B-1' }, { badge: null }]]);
    expect((await env.directories.get(uid)).attribute_mapping).to.deep.equal({ badge });
    await waitFor('the directory due for the serve replicas', async () =>
      (await env.store.dueDirectories(Date.now(), 100)).includes(uid),
    );

    // What JSON Schema cannot check, the core does: InvalidSpec naming the spec's field, the stored mapping kept.
    await patchConnection(env, 'attrs', { spec: { attributeMapping: { badge: 'addresses[type eq work].country' } } });
    const refused = await waitForReady(env, 'attrs', 'False', 'InvalidSpec');
    expect(readyOf(refused)?.message).to.match(
      /^spec\.attributeMapping\.badge: "addresses\[type eq work\]\.country": the filter/,
    );
    expect((await env.directories.get(uid)).attribute_mapping).to.deep.equal({ badge });
    const warned = await waitFor('the InvalidSpec event', async () =>
      (
        await env.kube.list<{ reason: string; message: string; involvedObject: { name: string } }>(
          EVENTS,
          'default',
          {},
        )
      ).items.find((e) => e.involvedObject.name === 'attrs' && e.reason === 'InvalidSpec'),
    );
    expect(warned.message).to.equal(readyOf(refused)?.message);
    await patchConnection(env, 'attrs', {
      spec: { attributeMapping: { badge, country: 'addresses[type eq "work"].country' } },
    });
    await waitFor('Ready again', async () => readyOf(await getConnection(env, 'attrs'))?.status === 'True');
  });
});
