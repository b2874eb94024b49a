/**
 * The resources an event names, for `resource` ordering: a user event names its user, a group event its group,
 * a membership event both (its data is the user, with the group under `group`).
 *
 * A user or group event's id is read off the text: dsync writes every event as `{"id":"evt_…","event":"<type>",`
 * … `"data":{"id":"<id>"`, and no string value can hold that key sequence unescaped, so its first occurrence is
 * the data's. Reading it off the text spares parsing each event (a kilobyte and more with `raw`), and the type is
 * read without a pattern, which would make garbage per event (docs/design/performance.md, "`resource` ordering's
 * queue as chains").
 * Memberships, and any text of another shape, are parsed.
 */
export interface EventResources {
  user: string | undefined;
  group: string | undefined;
}

const HEAD = '{"id":"';
const TYPE = '","event":"';
const DATA_ID = '"data":{"id":"';
const MEMBERSHIP = ['"group.user_added"', '"group.user_removed"'];
const QUOTE = 34;
const BACKSLASH = 92;

export function resourcesOf(json: string): EventResources {
  const type = typeStart(json);
  if (type >= 0 && !MEMBERSHIP.some((m) => json.startsWith(m, type - 1))) {
    const user = json.startsWith('user.', type);
    if (user || json.startsWith('group.', type)) {
      const at = json.indexOf(DATA_ID);
      const start = at + DATA_ID.length;
      const end = at < 0 ? -1 : json.indexOf('"', start);
      const id = end < 0 ? undefined : json.slice(start, end);
      if (id !== undefined && !id.includes('\\'))
        return user ? { user: id, group: undefined } : { user: undefined, group: id };
    }
  }
  return parsedResources(json);
}

/**
 * Where the type starts in text of the shape `{"id":"<no quote or backslash>","event":"<a-z _ .>"`; -1 if it
 * is of another shape.
 */
function typeStart(json: string): number {
  if (!json.startsWith(HEAD)) return -1;
  let i = HEAD.length;
  for (let c = json.charCodeAt(i); c !== QUOTE; c = json.charCodeAt(++i))
    if (c === BACKSLASH || Number.isNaN(c)) return -1;
  if (!json.startsWith(TYPE, i)) return -1;
  const start = i + TYPE.length;
  i = start;
  for (let c = json.charCodeAt(i); c !== QUOTE; c = json.charCodeAt(++i))
    if (!((c >= 97 && c <= 122) || c === 95 || c === 46)) return -1;
  return i > start ? start : -1;
}

interface EventShape {
  event?: unknown;
  data?: { id?: unknown; group?: { id?: unknown } };
}

/** The same, from the parsed event. */
export function parsedResources(json: string): EventResources {
  const { event, data } = JSON.parse(json) as EventShape;
  const type = typeof event === 'string' ? event : '';
  const id = typeof data?.id === 'string' ? data.id : undefined;
  if (type === 'group.user_added' || type === 'group.user_removed') {
    const group = typeof data?.group?.id === 'string' ? data.group.id : undefined;
    return { user: id, group };
  }
  if (type.startsWith('user.')) return { user: id, group: undefined };
  if (type.startsWith('group.')) return { user: undefined, group: id };
  return { user: undefined, group: undefined };
}
