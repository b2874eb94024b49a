/**
 * The Redis store's writes a caller acknowledges, and the keys they touch (durability.ts: WAIT on their masters).
 * A directory's keys share the slot of its record; a new directory's global indexes live elsewhere and are
 * confirmed too. A delete needs only its record: leftover index entries of a deleted directory are skipped by
 * every reader.
 */
import type { Directory } from '../../core/model.js';
import type { StoredSetupLink } from '../../core/store-port.js';
import type { WrittenKeys } from './durability.js';
import { setupLinkKey } from './access.js';
import { DIRS, prefix, tenantProductKey } from './keys.js';

const recordOf = (directoryId: string): string[] => [`${prefix(directoryId)}dir`];

/** Writes into one directory's slot: SCIM and management writes, Google sync state and tokens, Events API replays. */
const DIRECTORY_WRITES = [
  ...[
    'disableWebhook',
    'saveGoogleTokens',
    'deleteDirectory',
    'createUser',
    'updateUser',
    'deleteUser',
    'createGroup',
    'updateGroup',
    'deleteGroup',
  ],
  ...['putSyncRecord', 'requestReplay', 'removeDeadLetter', 'putScimTokens'],
];

export const ACKNOWLEDGED: Record<string, WrittenKeys> = {
  createDirectory: (d: Directory) => [...recordOf(d.id), DIRS, tenantProductKey(d.tenant, d.product)],
  updateDirectory: (d: Directory) => recordOf(d.id),
  // A link is resolved through its global key: confirmed with the directory's record of it.
  putSetupLink: (link: StoredSetupLink) => [...recordOf(link.directory_id), setupLinkKey(link.hash)],
  ...Object.fromEntries(DIRECTORY_WRITES.map((name) => [name, recordOf])),
};
