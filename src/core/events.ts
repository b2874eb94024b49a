/** Builds directory-sync events (docs/reference/events.md) from stored resources. Pure functions. */
import { attributesOf } from './attributes.js';
import { newEventId } from './ids.js';
import { isoTime } from './iso-time.js';
import { sameJson } from './json-equality.js';
import type {
  CustomAttributes,
  Directory,
  DirectorySyncEvent,
  EventDataOf,
  EventType,
  GroupEventData,
  MembershipTemplate,
  PendingEvent,
  ScimBody,
  StoreBuiltEvent,
  UserDataFields,
  UserEventData,
  UserJson,
} from './model.js';

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The user's `email`: the primary email (else the first; else userName when it is an address). */
export function primaryEmail(body: ScimBody): string | undefined {
  const emails = Array.isArray(body.emails) ? (body.emails as Array<Record<string, unknown>>) : [];
  const primary = emails.find((e) => e && e.primary === true) ?? emails[0];
  return str(primary?.value) ?? (str(body.userName)?.includes('@') ? str(body.userName) : undefined);
}

/**
 * The user's event data before `attributes` and `raw`, which come last. Assigned in order, not spread: it runs on
 * every user write.
 */
function userFields(
  id: string,
  body: ScimBody,
): Omit<UserEventData, 'attributes' | 'custom_attributes' | 'roles' | 'raw'> {
  const name = (body.name ?? {}) as Record<string, unknown>;
  const first = str(name.givenName);
  const last = str(name.familyName);
  const email = primaryEmail(body);
  // Built in JSON order: id, the names and email when present, active.
  const fields = { id } as Omit<UserEventData, 'attributes' | 'custom_attributes' | 'roles' | 'raw'>;
  if (first !== undefined) fields.first_name = first;
  if (last !== undefined) fields.last_name = last;
  if (email !== undefined) fields.email = email;
  fields.active = body.active !== false;
  return fields;
}

/**
 * A user's event data; `managerEmail`: its manager's email as resolved by its writer (core/attributes.ts);
 * `roles`: as last evaluated (core/roles.ts); `custom`: its custom attributes as last evaluated
 * (core/custom-attributes.ts).
 */
export function userData(
  id: string,
  body: ScimBody,
  managerEmail?: string,
  roles: readonly string[] = [],
  custom: CustomAttributes = {},
): UserEventData {
  return {
    ...userFields(id, body),
    attributes: attributesOf(body, managerEmail),
    custom_attributes: { ...custom },
    roles: [...roles],
    raw: { ...body, id },
  };
}

/**
 * The values of a user's event data besides its id and `raw`, as JSON (first name, last name, email: '' when
 * absent; active: `true` or `false`; the attributes object). With them the event data is built around the stored
 * body without parsing or serialising it (`userDataJson`); a store may keep them beside the body to build
 * membership events itself (Redis: in the write's script). Undefined for a body that cannot be spliced so (one
 * with its own `id`, or none).
 */
export function userDataFields(
  id: string,
  body: ScimBody,
  managerEmail?: string,
  roles: readonly string[] = [],
  custom: CustomAttributes = {},
): UserDataFields | undefined {
  if (Object.hasOwn(body, 'id') || hasNoKeys(body)) return undefined;
  const f = userFields(id, body);
  const json = (v: string | undefined) => (v === undefined ? '' : JSON.stringify(v));
  return [
    json(f.first_name),
    json(f.last_name),
    json(f.email),
    String(f.active),
    JSON.stringify(attributesOf(body, managerEmail)),
    JSON.stringify(roles),
    JSON.stringify(custom),
  ];
}

function hasNoKeys(body: ScimBody): boolean {
  for (const _ in body) return false;
  return true;
}

/** The event data's JSON from the body's (`JSON.stringify`'s text, without an id) and its `userDataFields`. */
function splicedUserData(
  id: string,
  [first, last, email, active, attributes, roles, custom]: UserDataFields,
  bodyJson: string,
): string {
  const idJson = JSON.stringify(id);
  const named = `${first && `,"first_name":${first}`}${last && `,"last_name":${last}`}${email && `,"email":${email}`}`;
  return `{"id":${idJson}${named},"active":${active},"attributes":${attributes},"custom_attributes":${custom},"roles":${roles},"raw":${bodyJson.slice(0, -1)},"id":${idJson}}}`;
}

/**
 * `JSON.stringify(userData(id, JSON.parse(bodyJson), managerEmail))` for a body the store holds as
 * `JSON.stringify`'s text, without serialising the body again: `raw` is that text with the id appended (the body
 * is stored without one), the other fields in `userFields`' order. A membership event carries the whole user, so
 * this runs for every member of a change (docs/design/performance.md, "A user's event around its body").
 */
export function userDataJson(
  id: string,
  bodyJson: string,
  managerEmail?: string,
  roles?: readonly string[],
  custom?: CustomAttributes,
): string {
  const body = JSON.parse(bodyJson) as ScimBody;
  const fields = bodyJson.endsWith('}') ? userDataFields(id, body, managerEmail, roles, custom) : undefined;
  return fields === undefined
    ? JSON.stringify(userData(id, body, managerEmail, roles, custom))
    : splicedUserData(id, fields, bodyJson);
}

/**
 * A user's body serialised once for a write: the text the store keeps and the event's `raw` (spliced into its data,
 * `userDataJson`'s way), with the fields a store may keep beside it (`userDataFields`).
 */
export function userJson(
  id: string,
  body: ScimBody,
  managerEmail?: string,
  roles?: readonly string[],
  custom?: CustomAttributes,
): UserJson {
  return { body: JSON.stringify(body), fields: userDataFields(id, body, managerEmail, roles, custom) };
}

/** A user as its events see it: the body, its manager's resolved email, its roles and custom attributes. */
export interface UserState {
  body: ScimBody;
  managerEmail?: string;
  roles?: readonly string[];
  customAttributes?: CustomAttributes;
}

/**
 * A user's `user.created` or `user.updated` event (with `before`, the state it replaces: `previous_attributes`),
 * byte for byte what `buildEvent` gives with `userData`, its data spliced around `json.body` (`userJson`, built
 * with the same manager email).
 */
export function userEvent(
  directory: Pick<Directory, 'id' | 'tenant' | 'product'>,
  event: 'user.created' | 'user.updated',
  id: string,
  user: UserState,
  json: UserJson,
  before: UserState | undefined,
  now: number,
): PendingEvent {
  const data =
    json.fields === undefined
      ? JSON.stringify(userData(id, user.body, user.managerEmail, user.roles, user.customAttributes))
      : splicedUserData(id, json.fields, json.body);
  return eventJson(directory, event, data, before && userPrevious(id, before, user), now);
}

/** Group data carries the group without its members: membership travels as group.user_added/removed events. */
export function groupData(id: string, body: ScimBody): GroupEventData {
  return { id, name: str(body.displayName) ?? '', raw: { ...body, id } };
}

type Fields = Record<string, unknown>;

/**
 * WorkOS-style `previous_attributes`: the top-level data fields that changed, with their old values; for
 * `attributes`, `custom_attributes` and `raw`, only their changed keys (absent before = null).
 */
export function previousAttributes(before: object, after: object): Fields | undefined {
  const b = before as Fields;
  const a = after as Fields;
  const nested = (key: string) => key === 'attributes' || key === 'custom_attributes' || key === 'raw';
  let top: Fields | undefined;
  for (const key in b) {
    if (!nested(key) && !sameJson(b[key], a[key])) (top ??= {})[key] = b[key] ?? null;
  }
  for (const key in a) {
    if (!nested(key) && !Object.hasOwn(b, key) && a[key] !== undefined) (top ??= {})[key] = null;
  }
  const inner = (key: string) => changedFrom((b[key] ?? {}) as Fields, (a[key] ?? {}) as Fields);
  return withNested(top, inner('attributes'), inner('custom_attributes'), inner('raw'));
}

/**
 * `previousAttributes(userData(id, …before), userData(id, …after))` without copying either body: `raw` is the
 * body with the user's id, the same on both sides, so its changes are the bodies' besides `id`.
 */
function userPrevious(id: string, before: UserState, after: UserState): Fields | undefined {
  let top = changedFrom(userFields(id, before.body), userFields(id, after.body));
  // `roles` is a top-level field whose old value is the whole old array.
  if (!sameJson(before.roles ?? [], after.roles ?? [])) (top ??= {}).roles = [...(before.roles ?? [])];
  return withNested(
    top,
    changedFrom(attributesOf(before.body, before.managerEmail), attributesOf(after.body, after.managerEmail)),
    changedFrom(before.customAttributes ?? {}, after.customAttributes ?? {}),
    changedFrom(before.body, after.body, 'id'),
  );
}

/**
 * `{ ...top, attributes, custom_attributes, raw }` (top is changedFrom's own object), each only when it changed;
 * no literal that starts with a spread (see scim/handler.ts).
 */
function withNested(
  top: Fields | undefined,
  attributes: Fields | undefined,
  custom: Fields | undefined,
  raw: Fields | undefined,
): Fields | undefined {
  if (attributes === undefined && custom === undefined && raw === undefined) return top;
  const out = top ?? {};
  if (attributes !== undefined) out.attributes = attributes;
  if (custom !== undefined) out.custom_attributes = custom;
  if (raw !== undefined) out.raw = raw;
  return out;
}

/**
 * The keys whose values differ between `before` and `after` (`before`'s first, then those only in `after`), each
 * with its old value (absent = null); undefined when none does. Two loops, not a Set of both key lists, and no
 * key arrays (for…in: bodies are plain JSON objects): it runs twice on every user update.
 */
function changedFrom(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  skip?: string,
): Record<string, unknown> | undefined {
  let out: Record<string, unknown> | undefined;
  for (const key in before) {
    if (key !== skip && !sameJson(before[key], after[key])) (out ??= {})[key] = before[key] ?? null;
  }
  for (const key in after) {
    if (key !== skip && !Object.hasOwn(before, key) && after[key] !== undefined) (out ??= {})[key] = null;
  }
  return out;
}

export function buildEvent<T extends EventType>(
  directory: Pick<Directory, 'id' | 'tenant' | 'product'>,
  event: T,
  data: EventDataOf<T>,
  previous?: Record<string, unknown>,
  now = Date.now(),
): PendingEvent {
  return eventJson(directory, event, JSON.stringify(data), previous, now);
}

/**
 * The event's JSON around its data's (docs/reference/events.md, in this key order), `previous_attributes` when given.
 */
function eventJson(
  directory: Pick<Directory, 'id' | 'tenant' | 'product'>,
  event: EventType,
  dataJson: string,
  previous: Record<string, unknown> | undefined,
  now: number,
): PendingEvent {
  const id = newEventId(now);
  const head: Omit<DirectorySyncEvent, 'event' | 'data' | 'sequence'> & { event: EventType } = {
    id,
    event,
    created_at: isoTime(now),
    directory_id: directory.id,
    tenant: directory.tenant,
    product: directory.product,
  };
  const previousJson = previous ? `,"previous_attributes":${JSON.stringify(previous)}` : '';
  return { id, json: `${JSON.stringify(head).slice(0, -1)},"data":${dataJson}${previousJson}}` };
}

/** Whether the store builds this event (its JSON exists only there), not its writer. */
export function storeBuilt(event: PendingEvent | StoreBuiltEvent | undefined): event is StoreBuiltEvent {
  return event !== undefined && 'template' in event;
}

/** An event its writer built; one left for the store to build (`StoreBuiltEvent`) has no JSON here, an error. */
export function writerBuilt(event: PendingEvent | StoreBuiltEvent): PendingEvent {
  if (!storeBuilt(event)) return event;
  throw new Error(`event ${event.id} is built by the store: its JSON is not in this process`);
}

const ID_SLOT = '\u0000id';
const DATA_SLOT = '\u0000data';
const ID_START = '{"id":'.length + JSON.stringify(ID_SLOT).length;
const DATA_END = JSON.stringify(DATA_SLOT).length + '}'.length;

/**
 * Membership events of one change, byte for byte what `buildEvent` gives, without serialising the same thing
 * again in every event: the directory's fields once per change, and the side every event shares once — the
 * group of a member PATCH (25 events carried 25 copies of its JSON), the user of a deletion (one event per group
 * it was in). Each event is the two serialised sides spliced in.
 */
export class MembershipEvents {
  /** The event's JSON between its id and its data: `,"event":…,"data":`. */
  readonly middle: string;

  constructor(
    directory: Pick<Directory, 'id' | 'tenant' | 'product'>,
    event: 'group.user_added' | 'group.user_removed',
    private readonly now: number,
  ) {
    // The fields between the id and the data, as JSON.stringify orders and omits them in buildEvent.
    const template = JSON.stringify({
      id: ID_SLOT,
      event,
      created_at: isoTime(now),
      directory_id: directory.id,
      tenant: directory.tenant,
      product: directory.product,
      data: DATA_SLOT,
    });
    this.middle = template.slice(ID_START, template.length - DATA_END);
  }

  /** The event whose data is `{ ...user, group }`, from `JSON.stringify(user)` and `JSON.stringify(group)`. */
  of(userJson: string, groupJson: string): PendingEvent {
    const id = newEventId(this.now);
    return { id, json: `{"id":"${id}"${this.middle}${userJson.slice(0, -1)},"group":${groupJson}}}` };
  }

  /** The same event for the store to build from the user it holds when it commits (`MembershipTemplate`). */
  inStore(template: MembershipTemplate): StoreBuiltEvent {
    return { id: newEventId(this.now), template };
  }
}
