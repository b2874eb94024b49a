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

const OBJECT_ID = '{"id":"';
const TYPE = '","event":"';
const DATA_KEY = '"data":';
const BACKSLASH = 92;

export function resourcesOf(json: string): EventResources {
  const type = typeStart(json);
  // `group.user_added` and `group.user_removed` name a user and a group: parsed.
  if (type >= 0 && !json.startsWith('group.user_', type)) {
    const user = json.startsWith('user.', type);
    if (user || json.startsWith('group.', type)) {
      const start = dataIdStart(json, type);
      const end = start < 0 ? -1 : json.indexOf('"', start);
      const id = end < 0 ? undefined : json.slice(start, end);
      if (id !== undefined && !id.includes('\\'))
        return user ? { user: id, group: undefined } : { user: undefined, group: id };
    }
  }
  return parsedResources(json);
}

/**
 * Where the type starts in text that opens `{"id":"<no escape>","event":"`; -1 if it is of another shape. The
 * id ends at its first quote unless a backslash escapes it (then, or on any backslash just before it, -1).
 */
function typeStart(json: string): number {
  if (!json.startsWith(OBJECT_ID)) return -1;
  const end = json.indexOf('"', OBJECT_ID.length);
  if (end < 0 || json.charCodeAt(end - 1) === BACKSLASH || !json.startsWith(TYPE, end)) return -1;
  return end + TYPE.length;
}

/**
 * Where the data's id starts: after the first `"data":{"id":"` from `from`. Found by its `{"id":"`, which is rare
 * before the data (no object comes before it), then checked for the key before it: a search for the whole
 * pattern costs several times more, a quote being its first character.
 */
function dataIdStart(json: string, from: number): number {
  for (let at = json.indexOf(OBJECT_ID, from); at >= 0; at = json.indexOf(OBJECT_ID, at + 1))
    if (at - DATA_KEY.length >= from && json.startsWith(DATA_KEY, at - DATA_KEY.length)) return at + OBJECT_ID.length;
  return -1;
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
