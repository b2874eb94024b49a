/** What the setup page shows live (its script polls it): counts, the last request, recent requests, tokens, sync. */
import type { Directory } from '../../core/model.js';
import type { Dsync } from '../../service.js';
import type { LiveStatus } from './section.js';

/** Requests the page lists: the newest of the activity record. */
export const PAGE_RECENT = 50;

export async function liveStatus(dsync: Dsync, directory: Directory): Promise<LiveStatus> {
  const google = directory.type === 'google';
  const scim = directory.type.endsWith('-scim-v2');
  const [users, groups, activity, tokens, sync, serviceAccount] = await Promise.all([
    dsync.store.countUsers(directory.id),
    dsync.store.countGroups(directory.id),
    dsync.activity.read(directory.id, PAGE_RECENT),
    scim ? dsync.scimTokens.list(directory.id) : Promise.resolve([]),
    google ? dsync.google.syncStatus(directory.id) : Promise.resolve(undefined),
    google && !directory.google_refresh_token ? dsync.store.getSyncRecord(directory.id, 'google-service-account') : Promise.resolve(null),
  ]);
  // Connected: an admin's consent gave tokens, or a service account was set (the operator's way).
  const connected = Boolean(directory.google_refresh_token) || serviceAccount !== null;
  const lastRequest = sync ? (sync.last_success_at ?? null) : activity.last_request_at;
  return {
    state: lastRequest || users > 0 || groups > 0 ? 'receiving' : 'waiting',
    users,
    groups,
    last_request_at: lastRequest,
    recent: activity.recent,
    tokens,
    ...(sync && { google: { connected, sync: connected ? sync : { ...sync, state: 'not_authorized' as const } } }),
  };
}
