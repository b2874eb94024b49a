/**
 * A dsync service wired to a fake Google over real HTTP (the real googleapis / google-auth-library clients in
 * between), with helpers to create Google directories and read the events each sync committed.
 */
import type { Store } from '../../src/core/store-port.js';
import type { DsyncOptions } from '../../src/service.js';
import { FAKE_CLIENT, FakeGoogle } from './fake-google.js';
import { eventReader, startService, type Service } from './harness.js';

export interface GoogleTest {
  fake: FakeGoogle;
  service: Service;
  /** A `type: google` directory authorized with fresh tokens from the fake. */
  directory(input?: Record<string, unknown>): Promise<any>;
  /** POST /api/v1/dsync/cron/sync-google (optionally one directory); the response's `data`. */
  sync(directoryId?: string): Promise<any>;
  /** The events committed to a directory since the last call (for that directory), parsed. */
  newEvents(directoryId: string): Promise<any[]>;
  close(): Promise<void>;
}

/** Fast retries, no pacing: the tests inject failures and want the retries now. */
export const TEST_RETRY = { attempts: 6, baseMs: 2, maxMs: 10 };

export function googleOptionsFor(fake: FakeGoogle): NonNullable<DsyncOptions['google']> {
  return {
    clientId: FAKE_CLIENT.id,
    clientSecret: FAKE_CLIENT.secret,
    apiUrl: fake.apiUrl,
    tokenUrl: fake.tokenUrl,
    authUrl: fake.authUrl,
    queriesPerMinute: 0,
    retry: TEST_RETRY,
  };
}

export async function startGoogleTest(store: Store, google: Partial<NonNullable<DsyncOptions['google']>> = {}): Promise<GoogleTest> {
  const fake = await new FakeGoogle().start();
  const service = await startService(store, { google: { ...googleOptionsFor(fake), ...google } });
  return {
    fake,
    service,
    async directory(input = {}) {
      const tokens = fake.oauth.issueTokens();
      return service.createDirectory({
        type: 'google',
        google_domain: 'example.com',
        google_access_token: tokens.access_token,
        google_refresh_token: tokens.refresh_token,
        ...input,
      });
    },
    async sync(directoryId) {
      const res = await service.api('POST', `/api/v1/dsync/cron/sync-google${directoryId ? `?directoryId=${directoryId}` : ''}`);
      if (res.status !== 200) throw new Error(`sync failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    newEvents: eventReader(store),
    async close() {
      await service.close();
      await fake.close();
    },
  };
}

/** `event:subject` labels, e.g. `user.created:user1@example.com`, `group.user_added:Eng/user1@example.com`. */
export function labels(events: any[]): string[] {
  return events.map((e) => {
    const d = e.data;
    if (e.event.startsWith('group.user_')) return `${e.event}:${d.group.name}/${d.email}`;
    return `${e.event}:${e.event.startsWith('group.') ? d.name : d.email}`;
  });
}
