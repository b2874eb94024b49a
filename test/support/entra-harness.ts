/**
 * A dsync service wired to a fake Entra ID over real HTTPS (the real @azure/msal-node and
 * @microsoft/microsoft-graph-client in between), with helpers to create Entra directories, run the sync and
 * read the events each sync committed. `https: true` serves dsync itself over TLS (the test CA), so that the
 * fake Graph can validate and notify its notification URL as Graph does (https only); `logger` takes the
 * service's logs.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '../../src/core/store-port.js';
import type { Logger } from '../../src/logger.js';
import type { DsyncOptions } from '../../src/service.js';
import { FAKE_APP, FakeEntra, testTls, type Tenant } from './fake-entra/index.js';
import { eventReader, startService, type Service } from './harness.js';

export const TENANT_A = 'aaaaaaaa-1111-4111-8111-111111111111';
export const TENANT_B = 'bbbbbbbb-2222-4222-8222-222222222222';

/** Fast retries: the tests inject failures and want the retries now (Retry-After still rules when longer). */
export const TEST_GRAPH_RETRY = { attempts: 6, baseMs: 2, maxMs: 10 };

/** A key and self-signed certificate in one PEM, as DSYNC_MICROSOFT_CERTIFICATE_FILE holds them. */
export function selfSignedPem(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dsync-entra-cert-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=dsync-app',
      '-keyout',
      join(dir, 'k.pem'),
      '-out',
      join(dir, 'c.pem'),
    ],
    { stdio: 'ignore' },
  );
  return readFileSync(join(dir, 'k.pem'), 'utf8') + readFileSync(join(dir, 'c.pem'), 'utf8');
}

export interface EntraTest {
  fake: FakeEntra;
  service: Service;
  /** A consented tenant of the fake. */
  tenant(id?: string): Tenant;
  /** A `type: microsoft-entra` directory connected to the tenant (as after its admin's consent). */
  directory(tenantId?: string, input?: Record<string, unknown>): Promise<any>;
  /** POST /api/v1/dsync/cron/sync-microsoft (optionally one directory); the response's `data`. */
  sync(directoryId?: string): Promise<any>;
  status(directoryId: string): Promise<any>;
  /** The events committed to a directory since the last call (for that directory), parsed. */
  newEvents(directoryId: string): Promise<any[]>;
  close(): Promise<void>;
}

export function microsoftOptionsFor(fake: FakeEntra): NonNullable<DsyncOptions['microsoft']> {
  return {
    clientId: FAKE_APP.clientId,
    clientSecret: FAKE_APP.secret,
    authorityUrl: fake.url,
    graphUrl: fake.url,
    retry: TEST_GRAPH_RETRY,
  };
}

export async function startEntraTest(
  store: Store,
  microsoft: Partial<NonNullable<DsyncOptions['microsoft']>> = {},
  { https = false, logger }: { https?: boolean; logger?: Logger } = {},
): Promise<EntraTest> {
  const fake = await new FakeEntra().start();
  const options = { microsoft: { ...microsoftOptionsFor(fake), ...microsoft }, ...(logger && { logger }) };
  const service = await startService(store, options, https ? { tls: testTls() } : {});
  fake.authority.redirectUris.add(`${service.url}/api/v1/dsync/microsoft/callback`);
  return {
    fake,
    service,
    tenant: (id = TENANT_A) => fake.tenants.get(id) ?? fake.tenant(id),
    async directory(tenantId = TENANT_A, input = {}) {
      return service.createDirectory({
        name: `Entra ${tenantId.slice(0, 4)}`,
        type: 'microsoft-entra',
        microsoft_tenant_id: tenantId,
        ...input,
      });
    },
    async sync(directoryId) {
      const res = await service.api(
        'POST',
        `/api/v1/dsync/cron/sync-microsoft${directoryId ? `?directoryId=${directoryId}` : ''}`,
      );
      if (res.status !== 200) throw new Error(`sync failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async status(directoryId) {
      const res = await service.api('GET', `/api/v1/directory-sync/${directoryId}/microsoft/sync`);
      if (res.status !== 200) throw new Error(`status failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    newEvents: eventReader(store),
    async close() {
      await service.close();
      await fake.close();
    },
  };
}
