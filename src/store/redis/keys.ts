/**
 * Key names of the Redis store. Its layout, all of one directory under the hash tag `{<directoryId>}`:
 *   dsync:{d}:dir          directory record (JSON)
 *   dsync:{d}:u:<id>       user record (see lua/prelude.ts for the encoding)
 *   dsync:{d}:uo           users ordered by creation (ZSET, paging)
 *   dsync:{d}:un|ue|um|ur  userName (unique) / externalId / email / manager id (a manager's reports) indexes (HASH)
 *   dsync:{d}:g:<id>, go, gn, ge   the same for groups (gn = displayName, unique)
 *   dsync:{d}:m:<gid>      members of a group (ZSET in the order added)
 *   dsync:{d}:md:<gid>     the `display` a client sent for a member (HASH)
 *   dsync:{d}:seq          insertion counter giving the ZSET scores
 *   dsync:{d}:ug:<uid>     groups of a user (SET)
 *   dsync:{d}:gs:<gid>:<token>, gj:<gid>, gt:<gid>, gf:<token>, gx:<gid>, gpend, uw   big membership changes:
 *                          staging list, journal, its token and applied flags, members of a deleted group still
 *                          to unlink, groups with such work, user-write counter (see lua/memberships.ts)
 *   dsync:{d}:ev           the directory's event log (STREAM; an entry's fields: records.ts entryEventJson;
 *                          its ids carry each event's sequence, counted in dsync:{d}:evn: event-ids.ts)
 *   dsync:{d}:dlog, dlq    delivery attempt logs and dead letters (STREAMs; ids are `<directoryId>_<entry id>`)
 *   dsync:{d}:lease, dstate   the delivery lease and cursor
 *   dsync:{d}:slease, sr:<name>   the pull sync's lease and small records (pull-sync.ts)
 *   dsync:{d}:replay       a pending replay request (ZSET, one member scored by the earliest `since`)
 *   dsync:{d}:tok, tokuse, links, act, actlast   SCIM tokens, setup links, the activity record (access.ts)
 * and two global indexes: dsync:dirs (ZSET of all directories), dsync:tp:<tenant>:<product> (ZSET).
 */

/** Every key of one directory shares its hash tag, so a directory's scripts run in one slot. */
export const prefix = (directoryId: string): string => `dsync:{${directoryId}}:`;
/** All directories (ZSET by creation time). */
export const DIRS = 'dsync:dirs';
/** Directories of a tenant and product (ZSET by creation time). */
export const tenantProductKey = (tenant: string, product: string): string => `dsync:tp:${tenant}:${product}`;
/** Directories with events to deliver (ZSET scored by when). */
export const DUE = 'dsync:due';
