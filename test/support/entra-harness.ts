/**
 * A dsync service wired to a fake Entra ID over real HTTPS (the real @azure/msal-node and
 * @microsoft/microsoft-graph-client in between), with helpers to create Entra directories, run the sync and
 * read the events each sync committed. `https: true` serves dsync itself over TLS (the test CA), so that the
 * fake Graph can validate and notify its notification URL as Graph does (https only).
 */
import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import type { Store } from '../../src/core/store-port.js';
import { createApp } from '../../src/http/app.js';
import { createDsync, type DsyncOptions } from '../../src/service.js';
import { FAKE_APP, FakeEntra, type Tenant } from './fake-entra/index.js';
import { API_KEY, startService, type Service } from './harness.js';

export const TENANT_A = 'aaaaaaaa-1111-4111-8111-111111111111';
export const TENANT_B = 'bbbbbbbb-2222-4222-8222-222222222222';

/** Fast retries: the tests inject failures and want the retries now (Retry-After still rules when longer). */
export const TEST_GRAPH_RETRY = { attempts: 6, baseMs: 2, maxMs: 10 };

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
  return { clientId: FAKE_APP.clientId, clientSecret: FAKE_APP.secret, authorityUrl: fake.url, graphUrl: fake.url, retry: TEST_GRAPH_RETRY };
}

/** The dsync app over HTTPS with the test CA's server certificate. */
async function startHttpsService(store: Store, options: Partial<DsyncOptions>): Promise<Service> {
  const dir = process.env.DSYNC_TEST_TLS_DIR!;
  const server = createHttpsServer({ key: readFileSync(join(dir, 'server.key')), cert: readFileSync(join(dir, 'server.crt')) });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const dsync = createDsync({ store, externalUrl: url, logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }), delivery: { pollIntervalMs: 20 }, ...options });
  server.on('request', createApp({ dsync, apiKeys: [API_KEY], logger: pino({ level: 'silent' }) }));
  dsync.start();
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Api-Key ${API_KEY}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, headers: res.headers, body: parsed as any };
  };
  return {
    url,
    dsync,
    api,
    scim: () => Promise.reject(new Error('not used over https')),
    async createDirectory(input = {}) {
      const res = await api('POST', '/api/v1/directory-sync', { name: 'Acme', tenant: 'acme', product: 'app', type: 'generic-scim-v2', ...input });
      if (res.status !== 201) throw new Error(`create directory failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await dsync.close();
    },
  };
}

export async function startEntraTest(
  store: Store,
  microsoft: Partial<NonNullable<DsyncOptions['microsoft']>> = {},
  { https = false }: { https?: boolean } = {},
): Promise<EntraTest> {
  const fake = await new FakeEntra().start();
  const options = { microsoft: { ...microsoftOptionsFor(fake), ...microsoft } };
  const service = https ? await startHttpsService(store, options) : await startService(store, options);
  fake.authority.redirectUris.add(`${service.url}/api/v1/dsync/microsoft/callback`);
  const cursors = new Map<string, string | null>();
  return {
    fake,
    service,
    tenant: (id = TENANT_A) => fake.tenants.get(id) ?? fake.tenant(id),
    async directory(tenantId = TENANT_A, input = {}) {
      return service.createDirectory({ name: `Entra ${tenantId.slice(0, 4)}`, type: 'microsoft-entra', microsoft_tenant_id: tenantId, ...input });
    },
    async sync(directoryId) {
      const res = await service.api('POST', `/api/v1/dsync/cron/sync-microsoft${directoryId ? `?directoryId=${directoryId}` : ''}`);
      if (res.status !== 200) throw new Error(`sync failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async status(directoryId) {
      const res = await service.api('GET', `/api/v1/directory-sync/${directoryId}/microsoft/sync`);
      if (res.status !== 200) throw new Error(`status failed: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.data;
    },
    async newEvents(directoryId) {
      const out: any[] = [];
      let after = cursors.get(directoryId) ?? null;
      for (;;) {
        const page = await store.readEvents(directoryId, after, 1000);
        if (page.length === 0) break;
        out.push(...page.map((e) => JSON.parse(e.json)));
        after = page.at(-1)!.seq;
      }
      cursors.set(directoryId, after);
      return out;
    },
    async close() {
      await service.close();
      await fake.close();
    },
  };
}
