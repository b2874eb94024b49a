/**
 * A dsync service wired to the fake HR systems over real HTTP, with helpers to connect an HRIS directory through
 * the management API, sync it, read its status and the events each sync committed.
 */
import type { Store } from '../../src/core/store-port.js';
import type { DsyncOptions } from '../../src/service.js';
import type { FakeBambooHR } from './fake-bamboohr.js';
import type { FakeHiBob } from './fake-hibob.js';
import type { FakePersonio } from './fake-personio.js';
import { eventReader, startService, type Reply, type Service } from './harness.js';
import { startFakes, type HrFake, type HrType } from './hr-fakes.js';

export interface HrisTest {
  bamboo: FakeBambooHR;
  bob: FakeHiBob;
  personio: FakePersonio;
  /** Each provider's fake as an HR admin works it. */
  fakes: Record<HrType, HrFake>;
  service: Service;
  /** A `type` directory, connected with the fake's good credentials (unless `credentials` is false). */
  directory(type: HrType, input?: Record<string, unknown>, credentials?: Record<string, string> | false): Promise<any>;
  /** PUT …/hris/credentials. */
  connect(directoryId: string, credentials: Record<string, string>): Promise<Reply>;
  /** POST /api/v1/dsync/cron/sync-hris (optionally one directory); the response's `data`. */
  sync(directoryId?: string): Promise<any>;
  status(directoryId: string): Promise<any>;
  /** The events committed to a directory since the last call (for that directory), parsed. */
  newEvents(directoryId: string): Promise<any[]>;
  close(): Promise<void>;
}

/**
 * Fast retries: the tests inject failures and want the retries now. Webhooks (and a new connection) sync after a
 * minute unless a test asks for less, so that each test's own syncs are the only ones.
 */
export const HRIS_TEST_RETRY = { attempts: 4, baseMs: 2, maxMs: 20 };

export const bambooCredentials = (fake: FakeBambooHR, extra: Record<string, string> = {}) => ({
  subdomain: fake.subdomain,
  api_key: 'bamboo-key-1',
  ...extra,
});

export async function startHrisTest(
  store: Store,
  hris: Partial<NonNullable<DsyncOptions['hris']>> = {},
): Promise<HrisTest> {
  const fakes = await startFakes();
  const service = await startService(store, {
    hris: {
      apiUrls: { bamboohr: fakes.bamboohr.url, hibob: fakes.hibob.url, personio: fakes.personio.url },
      retry: HRIS_TEST_RETRY,
      webhookDelayMs: 60_000,
      webhookMinIntervalMs: 0,
      // Bob's 50 a minute is the fake's to enforce (a throttling test); here the tests' requests go at once.
      perMinute: { hibob: 0 },
      ...hris,
    },
  });
  const connect = (directoryId: string, credentials: Record<string, string>) =>
    service.api('PUT', `/api/v1/directory-sync/${directoryId}/hris/credentials`, credentials);
  return {
    bamboo: fakes.bamboohr.server as FakeBambooHR,
    bob: fakes.hibob.server as FakeHiBob,
    personio: fakes.personio.server as FakePersonio,
    fakes,
    service,
    connect,
    async directory(type, input = {}, credentials = fakes[type].credentials()) {
      const dir = await service.createDirectory({ type, name: `Acme (${type})`, ...input });
      if (credentials) {
        const res = await connect(dir.id, credentials);
        if (res.status !== 200) throw new Error(`connect failed: ${res.status} ${JSON.stringify(res.body)}`);
      }
      return dir;
    },
    async sync(directoryId) {
      const res = await service.api(
        'POST',
        `/api/v1/dsync/cron/sync-hris${directoryId ? `?directoryId=${directoryId}` : ''}`,
      );
      if (res.status !== 200) throw new Error(`sync failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async status(directoryId) {
      const res = await service.api('GET', `/api/v1/directory-sync/${directoryId}/hris/sync`);
      if (res.status !== 200) throw new Error(`status failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    newEvents: eventReader(store),
    async close() {
      await service.close();
      await Promise.all(Object.values(fakes).map((f) => f.close()));
    },
  };
}
