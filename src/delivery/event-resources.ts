/**
 * The resources an event names, for `resource` ordering: a user event names its user, a group event its group,
 * a membership event both (its data is the user, with the group under `group`).
 *
 * A user or group event's id is read off the text: dsync writes every event as `{"id":"evt_…","event":"<type>",`
 * … `"data":{"id":"<id>"`, and no string value can hold that key sequence unescaped, so its first occurrence is
 * the data's. Parsing a whole event (a kilobyte and more with `raw`) per event was most of a batch's CPU.
 * Memberships, and any text of another shape, are parsed.
 */
const HEAD = /^\{"id":"[^"\\]*","event":"([a-z_.]+)"/;
const DATA_ID = '"data":{"id":"';

interface EventShape {
  event?: unknown;
  data?: { id?: unknown; group?: { id?: unknown } };
}

export function resourcesOf(json: string): string[] {
  const type = HEAD.exec(json)?.[1];
  if (type !== undefined && type !== 'group.user_added' && type !== 'group.user_removed') {
    const at = json.indexOf(DATA_ID);
    const start = at + DATA_ID.length;
    const end = at < 0 ? -1 : json.indexOf('"', start);
    const id = end < 0 ? undefined : json.slice(start, end);
    if (id !== undefined && !id.includes('\\')) {
      if (type.startsWith('user.')) return [`u:${id}`];
      if (type.startsWith('group.')) return [`g:${id}`];
    }
  }
  return parsedResources(json);
}

/** The same, from the parsed event. */
export function parsedResources(json: string): string[] {
  const { event, data } = JSON.parse(json) as EventShape;
  const type = typeof event === 'string' ? event : '';
  const id = typeof data?.id === 'string' ? data.id : undefined;
  if (type.startsWith('user.')) return id === undefined ? [] : [`u:${id}`];
  if (type === 'group.user_added' || type === 'group.user_removed') {
    const group = typeof data?.group?.id === 'string' ? data.group.id : undefined;
    return [...(id === undefined ? [] : [`u:${id}`]), ...(group === undefined ? [] : [`g:${group}`])];
  }
  if (type.startsWith('group.')) return id === undefined ? [] : [`g:${id}`];
  return [];
}
