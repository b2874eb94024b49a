/**
 * The resources an event names, for `resource` ordering: a user event names its user, a group event its group,
 * a membership event both (its data is the user, with the group under `group`).
 */
interface EventShape {
  event?: unknown;
  data?: { id?: unknown; group?: { id?: unknown } };
}

export function resourcesOf(json: string): string[] {
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
