/**
 * The ARGV of the user and group write scripts (lua/), built apart from the store so the order the scripts read
 * their arguments in is written down once, beside each other.
 */
import { userJson } from '../../core/events.js';
import type { GroupKeys, PendingEvent, StoredResource, UserJson, UserKeys } from '../../core/model.js';
import type { GroupUpdate } from '../../core/store-port.js';
import { LIST_SEP } from './lua/prelude.js';

/** The user's lookup keys, lower-cased where the indexes are case-insensitive. */
export const userKeyArgs = (keys: UserKeys): string[] => [
  keys.userName.toLowerCase(),
  keys.externalId ?? '',
  keys.emails.map((e) => e.toLowerCase()).join(LIST_SEP),
];

/**
 * The user's JSON, the fields its script keeps beside it to build membership events (lua/prelude.ts; none when
 * the id is not its own JSON string content, since the Lua splices it as is), and its manager's id and email.
 */
export function userArgs(
  id: string,
  body: StoredResource['body'],
  keys: UserKeys,
  json: UserJson = userJson(id, body, keys.managerEmail, keys.roles, keys.customAttributes),
): string[] {
  const fields = JSON.stringify(id) === `"${id}"` ? json.fields : undefined;
  return [
    json.body,
    ...(fields ? ['1', ...fields.slice(0, 5)] : ['']),
    keys.managerId ?? '',
    keys.managerEmail ?? '',
    JSON.stringify(keys.roles ?? []),
    JSON.stringify(keys.customAttributes ?? {}),
  ];
}

/** The pending events, counted first so the script knows where they end. */
export const eventArgs = (list: PendingEvent[]): string[] => [String(list.length), ...list.map((e) => e.json)];

export const createGroupArgs = (group: StoredResource, keys: GroupKeys, evs: PendingEvent[]): string[] => [
  group.id,
  keys.displayName.toLowerCase(),
  keys.externalId ?? '',
  String(group.created),
  String(group.lastModified),
  JSON.stringify(group.body),
  ...eventArgs(evs),
];

/** Empty strings stand for what the update leaves as is (no version check, no new body). */
export const updateGroupArgs = (id: string, update: GroupUpdate, hasBody: boolean): string[] => [
  id,
  update.expectedVersion === undefined ? '' : String(update.expectedVersion),
  hasBody ? '1' : '',
  update.keys?.displayName.toLowerCase() ?? '',
  update.keys?.externalId ?? '',
  String(update.now),
  hasBody ? JSON.stringify(update.body) : '',
  update.expectedBody ?? '',
  ...eventArgs(update.events),
];
