/**
 * The fake Google of the benchmark, in its own process (so the benchmark's RSS is the sync's alone), driven by
 * IPC messages: seed a domain, apply 1% of changes, report the Directory API calls and mint tokens.
 */
import { FakeGoogle } from '../support/fake-google.js';

type Command =
  | { cmd: 'seed'; users: number; groups: number; members: number }
  | { cmd: 'change'; share: number }
  | { cmd: 'calls' }
  | { cmd: 'tokens' };

const fake = await new FakeGoogle().start();

function seed(users: number, groups: number, members: number): void {
  const ids = Array.from({ length: users }, () => fake.addUser().id);
  for (let g = 0; g < groups; g++) {
    const group = fake.addGroup();
    for (let m = 0; m < members; m++) fake.addMember(group.id, ids[(g * members + m) % ids.length]!);
  }
}

/** `share` of the users changed (renamed, suspended, deleted, added in equal parts), groups renamed, members moved. */
function change(share: number): Record<string, number> {
  const users = [...fake.users.values()];
  const n = Math.round(users.length * share);
  const quarter = Math.floor(n / 4);
  for (const u of users.slice(0, quarter))
    u.name = { ...u.name, givenName: `${u.name.givenName}x`, fullName: `${u.name.fullName}x` };
  for (const u of users.slice(quarter, 2 * quarter)) u.suspended = true;
  for (const u of users.slice(2 * quarter, 3 * quarter)) fake.removeUser(u.id);
  for (let i = 0; i < quarter; i++) fake.addUser();
  const groups = [...fake.groups.values()];
  const renamed = Math.round(groups.length * share);
  for (const g of groups.slice(0, renamed)) g.name = `${g.name} renamed`;
  // Members moved: one member of each of the first groups goes to the next group.
  let moved = 0;
  for (let i = 0; i + 1 < groups.length && moved < n; i += 2, moved++) {
    const from = fake.members.get(groups[i]!.id)!;
    const member = [...from.keys()].at(-1)!;
    fake.removeMember(groups[i]!.id, member);
    fake.addMember(groups[i + 1]!.id, member);
  }
  return {
    renamed: quarter,
    suspended: quarter,
    deleted: quarter,
    added: quarter,
    groupsRenamed: renamed,
    membersMoved: moved,
  };
}

process.on('message', (message: Command) => {
  const reply = (data: unknown) => process.send!(data);
  if (message.cmd === 'seed')
    reply(
      (seed(message.users, message.groups, message.members),
      { apiUrl: fake.apiUrl, tokenUrl: fake.tokenUrl, authUrl: fake.authUrl }),
    );
  else if (message.cmd === 'change') reply(change(message.share));
  else if (message.cmd === 'calls') reply(fake.totalCalls);
  else if (message.cmd === 'tokens') reply(fake.oauth.issueTokens());
});
process.send!({ ready: true });
