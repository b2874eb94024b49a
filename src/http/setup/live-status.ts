/** What the setup page shows live (its script polls it): counts, the last request, recent requests, tokens, sync. */
import type { Directory } from '../../core/model.js';
import type { Dsync } from '../../service.js';
import { pullStatus } from './pull-section.js';
import type { LiveStatus } from './view-types.js';

/** Requests the page lists: the newest of the activity record. */
export const PAGE_RECENT = 50;

export async function liveStatus(dsync: Dsync, directory: Directory): Promise<LiveStatus> {
  const scim = directory.type.endsWith('-scim-v2');
  const [users, groups, activity, tokens, pull] = await Promise.all([
    dsync.store.countUsers(directory.id),
    dsync.store.countGroups(directory.id),
    dsync.activity.read(directory.id, PAGE_RECENT),
    scim ? dsync.scimTokens.list(directory.id) : Promise.resolve([]),
    pullStatus(dsync, directory),
  ]);
  const lastRequest = pull ? pull.status.last_success_at : activity.last_request_at;
  return {
    state: lastRequest || users > 0 || groups > 0 ? 'receiving' : 'waiting',
    users,
    groups,
    last_request_at: lastRequest,
    recent: activity.recent,
    tokens,
    ...(pull && { pull }),
  };
}
