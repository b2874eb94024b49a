/**
 * The keys each write script (users.ts, groups.ts, memberships.ts) touches, as its caller declares them:
 * names after the directory prefix, besides the directory record (KEYS[1], always first). A script refuses a key
 * missing here (`undeclared key`), so the store's tests prove these lists complete. Keys that follow from stored
 * data (a group's members, a journal chunk's users) the caller reads first or the script asks for (`keys`).
 */

const USER_INDEXES = ['un', 'ue', 'um', 'ur'] as const;
/** The event log and its sequence counter (event-ids.ts), declared by every script that logs events. */
const LOG = ['ev', 'evn'] as const;
/** A staging list of a big membership change (the adapter deletes it when its write fails). */
export const stageKey = (groupId: string, token: string): string => `gs:${groupId}:${token}`;
/**
 * A user's record and, when its memberships change, its groups: a loop, as `flatMap` is slow on Node.js 20
 * (docs/design/performance.md, "flatMap and a PATCH's last copies").
 */
function userKeys(userIds: string[], links: boolean): string[] {
  const out: string[] = [];
  for (const id of userIds) {
    out.push(`u:${id}`);
    if (links) out.push(`ug:${id}`);
  }
  return out;
}

export const SCRIPT_KEYS = {
  createUser: (id: string) => [`u:${id}`, ...USER_INDEXES, 'uo', 'seq', ...LOG],
  updateUser: (id: string) => [`u:${id}`, ...USER_INDEXES, 'gpend', 'uw', ...LOG],
  /** `groupIds`: the user's groups as the caller read them (the script answers 'stale' when they changed). */
  deleteUser: (id: string, groupIds: string[]) => [
    `u:${id}`,
    `ug:${id}`,
    ...USER_INDEXES,
    'uo',
    'gpend',
    'uw',
    ...LOG,
    ...groupIds.flatMap((g) => [`g:${g}`, `m:${g}`, `md:${g}`]),
  ],
  createGroup: (id: string) => [`g:${id}`, 'gn', 'ge', 'go', 'seq', ...LOG],
  /** The name indexes only when the body changes (a membership PATCH leaves them). */
  updateGroup: (id: string, hasBody: boolean) => [`g:${id}`, `gj:${id}`, ...LOG, ...(hasBody ? ['gn', 'ge'] : [])],
  /** The membership part of a group write sent inline: `userIds` are those its entries add or remove. */
  inlineMembers: (groupId: string, userIds: string[]) => [
    `m:${groupId}`,
    `md:${groupId}`,
    'seq',
    ...LOG,
    ...userKeys(userIds, true),
  ],
  /** The membership part of a group write staged as `token`: its commit. */
  stagedMembers: (groupId: string, token: string) => [
    stageKey(groupId, token),
    'uw',
    `gj:${groupId}`,
    `gt:${groupId}`,
    'gpend',
  ],
  /** Members of up to a chunk are unlinked by the script itself: the caller adds their `ug:` keys (read first). */
  deleteGroup: (id: string) => [
    `g:${id}`,
    `gj:${id}`,
    `m:${id}`,
    `md:${id}`,
    `gx:${id}`,
    'gn',
    'ge',
    'go',
    'gpend',
    ...LOG,
  ],
  /** Besides each chunk's keys: see journalChunk, or those the script names. */
  drain: (groupId: string) => [
    `gj:${groupId}`,
    `gt:${groupId}`,
    `gx:${groupId}`,
    `m:${groupId}`,
    `md:${groupId}`,
    'gpend',
    'seq',
    ...LOG,
  ],
  /** A chunk of the journal of the change staged as `token`: its flags and users (entries from the writer). */
  journalChunk: (token: string, userIds: string[]) => [`gf:${token}`, ...userKeys(userIds, true)],
  /** Staging a chunk, or re-checking one (dsyncVerify): the list and the records of the chunk's users. */
  stage: (groupId: string, token: string, userIds: string[]) => [
    stageKey(groupId, token),
    'uw',
    ...userKeys(userIds, false),
  ],
};
