// The informer against a scripted API server on port 0 (http): the failure modes a real cluster produces
// rarely and at random (a silent watch, 410 Gone) on demand.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { KubeConfig } from '@kubernetes/client-node';
import { expect } from 'chai';
import { pino } from 'pino';
import { Informer, type InformerEventType } from '../../../src/operator/controller/informer.js';
import { KubeClient, SECRETS, type Secret } from '../../../src/operator/kube.js';

const secret = (name: string, rv: string, ref?: string): Secret => ({
  metadata: {
    name,
    namespace: 'ns',
    resourceVersion: rv,
    managedFields: [{ big: true }],
    ...(ref && { labels: { ref } }),
  },
});

interface FakeApi {
  server: Server;
  client: KubeClient;
  lists: number;
  /** Items the next list returns. */
  items: Secret[];
  listRv: string;
  watchQueries: URLSearchParams[];
  /** The currently open watch stream. */
  watch?: ServerResponse;
  send(type: string, object: unknown): void;
}

async function fakeApi(): Promise<FakeApi> {
  const api = { lists: 0, items: [] as Secret[], listRv: '10', watchQueries: [] as URLSearchParams[] } as FakeApi;
  api.server = createServer((req, res) => {
    const url = new URL(req.url!, 'http://localhost');
    if (url.pathname !== '/api/v1/namespaces/ns/secrets') return void res.writeHead(404).end();
    if (url.searchParams.get('watch') === 'true') {
      api.watchQueries.push(url.searchParams);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.flushHeaders();
      api.watch = res;
      return;
    }
    api.lists++;
    res.end(JSON.stringify({ metadata: { resourceVersion: api.listRv }, items: api.items }));
  });
  api.send = (type, object) => api.watch!.write(`${JSON.stringify({ type, object })}\n`);
  await new Promise<void>((resolve) => api.server.listen(0, '127.0.0.1', resolve));
  const kubeConfig = new KubeConfig();
  kubeConfig.loadFromOptions({
    clusters: [
      { name: 'fake', server: `http://127.0.0.1:${(api.server.address() as AddressInfo).port}`, skipTLSVerify: true },
    ],
    users: [{ name: 'fake' }],
    contexts: [{ name: 'fake', cluster: 'fake', user: 'fake' }],
    currentContext: 'fake',
  });
  api.client = new KubeClient({ kubeConfig });
  return api;
}

async function until(what: string, check: () => boolean, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('Informer', () => {
  let api: FakeApi;
  let informer: Informer<Secret>;
  let events: string[];

  beforeEach(async () => {
    api = await fakeApi();
    events = [];
  });

  afterEach(async () => {
    await informer?.stop();
    api.client.close();
    api.server.closeAllConnections();
    await new Promise((resolve) => api.server.close(resolve));
  });

  function start(options: { watchdogMs?: number; resyncIntervalMs?: number } = {}): Informer<Secret> {
    informer = new Informer<Secret>({
      client: api.client,
      resource: SECRETS,
      namespace: 'ns',
      logger: pino({ level: 'silent' }),
      resyncIntervalMs: options.resyncIntervalMs ?? 0,
      watchdogMs: options.watchdogMs ?? 60_000,
      indexers: { ref: (s) => (s.metadata.labels?.['ref'] ? [s.metadata.labels['ref']] : []) },
    });
    informer.on((type: InformerEventType, obj) =>
      events.push(`${type} ${obj.metadata.name}@${obj.metadata.resourceVersion}`),
    );
    informer.start();
    return informer;
  }

  it('lists, then watches from the list resourceVersion with bookmarks; caches without managedFields', async () => {
    api.items = [secret('a', '5', 'hook'), secret('b', '7')];
    start();
    await informer.synced;
    await until('a watch', () => api.watchQueries.length === 1);
    expect(api.watchQueries[0]!.get('resourceVersion')).to.equal('10');
    expect(api.watchQueries[0]!.get('allowWatchBookmarks')).to.equal('true');
    expect(events).to.deep.equal(['add a@5', 'add b@7']);
    expect(informer.get('ns/a')?.metadata.managedFields).to.equal(undefined);
    expect(informer.keysByIndex('ref', 'hook')).to.deep.equal(['ns/a']);

    api.send('MODIFIED', secret('a', '11'));
    api.send('ADDED', secret('c', '12', 'hook'));
    api.send('DELETED', secret('b', '13'));
    await until('three events', () => events.length === 5);
    expect(events.slice(2)).to.deep.equal(['update a@11', 'add c@12', 'delete b@13']);
    expect(informer.keysByIndex('ref', 'hook')).to.deep.equal(['ns/c']);
  });

  it('restarts a silent watch (watchdog) from the last bookmark, without relisting', async () => {
    start({ watchdogMs: 200 });
    await until('a watch', () => api.watchQueries.length === 1);
    api.send('BOOKMARK', { metadata: { resourceVersion: '42' } });
    // On a loaded machine the 200 ms watchdog may also fire before the bookmark arrives: what must hold is that
    // a restart after it resumes from it, and that none of the restarts relisted.
    await until('the watchdog to restart the watch from the bookmark', () =>
      api.watchQueries.some((q) => q.get('resourceVersion') === '42'),
    );
    expect(api.lists).to.equal(1);
    api.send('ADDED', secret('late', '43'));
    await until('the event on the new watch', () => events.includes('add late@43'));
  });

  it('relists on 410 Gone and reports what vanished meanwhile', async () => {
    api.items = [secret('a', '5'), secret('b', '6')];
    start();
    await until('a watch', () => api.watchQueries.length === 1);
    api.items = [secret('a', '5'), secret('c', '20')];
    api.listRv = '21';
    api.send('ERROR', { kind: 'Status', code: 410, reason: 'Expired', message: 'too old resource version' });
    await until('the relist and a new watch', () => api.watchQueries.length === 2);
    expect(api.lists).to.equal(2);
    expect(api.watchQueries[1]!.get('resourceVersion')).to.equal('21');
    expect(events).to.deep.equal(['add a@5', 'add b@6', 'delete b@6', 'add c@20']);
  });

  it('re-watches with backoff when the server drops the connection', async () => {
    start();
    await until('a watch', () => api.watchQueries.length === 1);
    api.send('ADDED', secret('a', '11'));
    await until('the event', () => events.length === 1);
    api.watch!.socket!.destroy();
    await until('a second watch', () => api.watchQueries.length === 2);
    expect(api.watchQueries[1]!.get('resourceVersion')).to.equal('11');
    expect(api.lists).to.equal(1);
  });

  it('writes own writes through and drops their echoes, so the cache never goes back', async () => {
    api.items = [secret('a', '5')];
    start();
    await until('a watch', () => api.watchQueries.length === 1);
    informer.recordWrite(secret('a', '6'), '5'); // e.g. the finalizer patch
    informer.recordWrite(secret('a', '7'), '6'); // then the status patch
    informer.recordWrite(secret('a', '99'), '5'); // based on a stale read: ignored
    expect(informer.get('ns/a')?.metadata.resourceVersion).to.equal('7');
    api.send('MODIFIED', secret('a', '6'));
    api.send('ADDED', secret('sentinel', '6')); // events are applied in order: once this is seen, so is the echo
    await until('the echo to be read', () => events.includes('add sentinel@6'));
    expect(informer.get('ns/a')?.metadata.resourceVersion).to.equal('7'); // not rolled back to 6
    api.send('MODIFIED', secret('a', '7'));
    api.send('MODIFIED', secret('a', '8')); // someone else's change
    await until('the foreign change', () => events.length === 3);
    expect(events).to.deep.equal(['add a@5', 'add sentinel@6', 'update a@8']);
  });

  it('resync re-delivers every cached object as an update', async () => {
    api.items = [secret('a', '5'), secret('b', '6')];
    start({ resyncIntervalMs: 100 });
    await informer.synced;
    await until('two resyncs', () => events.length >= 6);
    expect(events.slice(2, 6)).to.deep.equal(['update a@5', 'update b@6', 'update a@5', 'update b@6']);
  });
});
