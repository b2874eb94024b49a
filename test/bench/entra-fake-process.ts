/**
 * The fake Entra of the benchmark, in its own process (so the benchmark's RSS is the sync's alone), driven by
 * IPC messages: seed a tenant, apply N changes, report Graph calls. Serves TLS with the test CA
 * (DSYNC_TEST_TLS_DIR, set by microsoft-sync.bench.ts).
 */
import { FakeEntra } from '../support/fake-entra/index.js';

export const BENCH_TENANT = 'bbbbbbbb-0000-4000-8000-000000000001';

type Command =
  | { cmd: 'seed'; users: number; groups: number; members: number }
  | { cmd: 'change'; n: number }
  | { cmd: 'calls' }
  | { cmd: 'cpu' };

const fake = await new FakeEntra().start();
const tenant = fake.tenant(BENCH_TENANT);

function seed(users: number, groups: number, members: number): void {
  const ids = Array.from({ length: users }, () => tenant.addUser().id);
  for (let g = 0; g < groups; g++) {
    const group = tenant.addGroup();
    for (let m = 0; m < members; m++) tenant.addMember(group.id, ids[(g * members + m) % ids.length]!);
  }
}

/** `n` changes of every kind: renames, disables, deletions, new users, member additions and removals. */
function change(n: number): Record<string, number> {
  const users = [...tenant.users.values()];
  const groups = [...tenant.groups.keys()];
  const k = Math.floor(n / 6);
  for (const u of users.slice(0, k)) tenant.updateUser(u.id, { givenName: `${u.givenName}x` });
  for (const u of users.slice(k, 2 * k)) tenant.updateUser(u.id, { accountEnabled: false });
  for (const u of users.slice(2 * k, 3 * k)) tenant.removeUser(u.id);
  for (let i = 0; i < k; i++) tenant.addUser();
  for (let i = 0; i < k; i++) tenant.addMember(groups[i]!, users[users.length - 1 - i]!.id);
  const rest = n - 5 * k;
  for (let i = 0; i < rest; i++) {
    const g = groups[groups.length - 1 - i]!;
    tenant.removeMember(g, [...tenant.members.get(g)!.keys()].at(-1)!);
  }
  return { renamed: k, disabled: k, deleted: k, created: k, membersAdded: k, membersRemoved: rest };
}

const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

process.on('message', (message: Command) => {
  const reply = (data: unknown) => process.send!(data);
  if (message.cmd === 'seed') reply((seed(message.users, message.groups, message.members), { url: fake.url }));
  else if (message.cmd === 'change') reply(change(message.n));
  else if (message.cmd === 'calls') reply(fake.graphCalls(BENCH_TENANT));
  else if (message.cmd === 'cpu') reply(cpuSeconds());
});
process.send!({ ready: true, tenant: BENCH_TENANT });
