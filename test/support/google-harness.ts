/**
 * A dsync service wired to a fake Google over real HTTP (the real googleapis / google-auth-library clients in
 * between), with helpers to create Google directories and read the events each sync committed.
 */
import type { Store } from '../../src/core/store-port.js';
import type { DsyncOptions } from '../../src/service.js';
import { expect } from 'chai';
import type { Browser } from './cookie-browser.js';
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

export async function startGoogleTest(
  store: Store,
  google: Partial<NonNullable<DsyncOptions['google']>> = {},
): Promise<GoogleTest> {
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
      const res = await service.api(
        'POST',
        `/api/v1/dsync/cron/sync-google${directoryId ? `?directoryId=${directoryId}` : ''}`,
      );
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

/** The read-only Directory API scopes the authorization flow asks for. */
export const GOOGLE_SCOPES = [
  'https://www.googleapis.com/auth/admin.directory.user.readonly',
  'https://www.googleapis.com/auth/admin.directory.group.readonly',
  'https://www.googleapis.com/auth/admin.directory.group.member.readonly',
];

/**
 * The authorization flow's tests start from a Google directory for example.com, not yet authorized, whose admin the
 * fake consents as.
 */
export async function startGoogleFlow(store: Store): Promise<{ t: GoogleTest; dir: any }> {
  const t = await startGoogleTest(store);
  t.fake.addUser({ primaryEmail: 'admin@example.com' });
  return { t, dir: await t.service.createDirectory({ type: 'google', google_domain: 'example.com' }) };
}

/** Step 1 over HTTP: the directory's start link. */
export async function authorizationUrlOf(t: GoogleTest, d: { id: string }, query = ''): Promise<URL> {
  const res = await t.service.api('GET', `/api/v1/directory-sync/${d.id}/google/authorization-url${query}`);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return new URL(res.body.data.authorizationUrl);
}

/** What the admin's browser does: our start link, then Google's consent page (approved at once by the fake). */
export const consent = async (browser: Browser, link: URL) => browser.redirected(await browser.redirected(link), 302);

/** `event:subject` labels, e.g. `user.created:user1@example.com`, `group.user_added:Eng/user1@example.com`. */
export function labels(events: any[]): string[] {
  return events.map((e) => {
    const d = e.data;
    if (e.event.startsWith('group.user_')) return `${e.event}:${d.group.name}/${d.email}`;
    return `${e.event}:${e.event.startsWith('group.') ? d.name : d.email}`;
  });
}
