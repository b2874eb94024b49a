// The metric families of `dsync serve`, scraped over HTTP from a running service on both stores: backlog
// (pending events and oldest age per mode), dead letters, webhooks disabled by a 410, cron runs, build info,
// store command latency/errors (Redis); and the log line of a failed delivery attempt (no URL, no secret).
import { Writable } from 'node:stream';
import { expect } from 'chai';
import { pino } from 'pino';
import { Metrics } from '../../src/metrics.js';
import type { Store } from '../../src/core/store-port.js';
import { RedisStore } from '../../src/store/redis/users-groups.js';
import {
  openStore,
  startReceiver,
  startService,
  STORE_KINDS,
  until,
  type Receiver,
  type Service,
} from '../support/harness.js';

/** `name{labels} value` samples of a Prometheus text scrape. */
async function scrape(port: number): Promise<Map<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

/** Scrapes until `ok` holds (gauges are measured at most every 5 s); returns that scrape. */
async function scrapeUntil(
  port: number,
  ok: (samples: Map<string, number>) => boolean,
  what: string,
): Promise<Map<string, number>> {
  let last = new Map<string, number>();
  await until(async () => ok((last = await scrape(port))), what, 15_000);
  return last;
}

const value = (samples: Map<string, number>, name: string): number | undefined => samples.get(name);

for (const kind of STORE_KINDS) {
  describe(`metrics of dsync serve (${kind} store)`, function () {
    this.timeout(30_000);
    let store: Store;
    let service: Service;
    let receiver: Receiver;
    let metrics: Metrics;
    let port: number;
    let server: import('node:http').Server;
    const logLines: Array<Record<string, unknown>> = [];

    before(async () => {
      store = await openStore(kind, 11);
      metrics = new Metrics();
      if (store instanceof RedisStore) store.observeCommands(metrics.observeStore);
      const sink = new Writable({
        write(chunk: Buffer, _enc, done) {
          for (const line of chunk.toString().split('\n').filter(Boolean))
            logLines.push(JSON.parse(line) as Record<string, unknown>);
          done();
        },
      });
      receiver = await startReceiver();
      service = await startService(store, {
        metrics,
        logger: pino({ level: 'debug' }, sink),
        // batch mode: events wait for processEvents (the cron), so the backlog is observable
        webhook: { batchSize: 10, allowPrivate: true, retrySchedule: [200], timeoutMs: 2_000 },
      });
      server = await metrics.listen(0, '127.0.0.1');
      port = (server.address() as { port: number }).port;
    });

    after(async () => {
      server?.close();
      await service?.close();
      await receiver?.close();
    });

    const addUser = (dir: { id: string; scim: { secret: string } }, userName: string) =>
      service.scim(dir, 'POST', '/Users', {
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
        userName,
        name: { givenName: 'A', familyName: 'B' },
      });

    it('exports build info and, idle, an empty backlog labelled with the delivery mode', async () => {
      const s = await scrape(port);
      expect(value(s, `dsync_build_info{version="0.1.0",node_version="${process.version}"}`)).to.equal(1);
      expect(value(s, 'dsync_webhook_backlog_events{mode="batch"}')).to.equal(0);
      expect(value(s, 'dsync_webhook_backlog_oldest_age_seconds{mode="batch"}')).to.equal(0);
      expect(value(s, 'dsync_dead_letters_pending')).to.equal(0);
      expect(value(s, 'dsync_webhooks_disabled')).to.equal(0);
    });

    it('counts pending events and their age, then a partial cron run and a log line per failed attempt', async () => {
      receiver.respond = () => 503;
      const url = `${receiver.url}?token=s3cr3t`; // (credentials in the URL itself are refused at create)
      const dir = await service.createDirectory({ tenant: 'down', webhook_url: url, webhook_secret: receiver.secret });
      for (const name of ['a@x.com', 'b@x.com']) expect((await addUser(dir, name)).status).to.equal(201);
      await new Promise((r) => setTimeout(r, 1_100));
      let s = await scrapeUntil(
        port,
        (got) => (value(got, 'dsync_webhook_backlog_events{mode="batch"}') ?? 0) >= 2,
        'a backlog of 2',
      );
      expect(value(s, 'dsync_webhook_backlog_events{mode="batch"}')).to.equal(2);
      expect(value(s, 'dsync_webhook_backlog_oldest_age_seconds{mode="batch"}')).to.be.within(1, 30);

      const stats = await service.dsync.processEvents();
      expect(stats.failed).to.equal(1);
      s = await scrape(port);
      expect(value(s, 'dsync_cron_runs_total{task="process-events",outcome="partial"}')).to.equal(1);
      const failed = logLines.filter((l) => l['msg'] === 'webhook delivery failed; retrying');
      expect(failed).to.have.length(1);
      expect(failed[0]).to.include({ directoryId: dir.id, status: 503, attempt: 1 });
      expect(failed[0]!['webhookId']).to.be.a('string').and.not.equal('');
      expect(Date.parse(String(failed[0]!['nextRetryAt']))).to.be.above(Date.now() - 5_000);
      const all = JSON.stringify(logLines);
      for (const secret of ['s3cr3t', receiver.secret]) expect(all).to.not.contain(secret);
      expect(
        logLines.some((l) => l['msg'] === 'delivery attempt' && l['level'] === 20),
        'debug line per attempt',
      ).to.equal(true);
    });

    it('counts webhooks a 410 disabled and dead letters', async () => {
      const gone = await service.createDirectory({
        tenant: 'gone',
        webhook_url: receiver.url,
        webhook_secret: receiver.secret,
      });
      receiver.respond = (d) => ((d.body as Array<{ directory_id: string }>)[0]!.directory_id === gone.id ? 410 : 503);
      expect((await addUser(gone, 'c@x.com')).status).to.equal(201);
      await new Promise((r) => setTimeout(r, 300)); // past the retry time of the failing directory above
      // 'down' fails its last attempt (503 again: dead letter), 'gone' answers 410 (disabled)
      const stats = await service.dsync.processEvents();
      expect(stats.failed).to.equal(2);
      const s = await scrapeUntil(
        port,
        (got) => (value(got, 'dsync_webhooks_disabled') ?? 0) >= 1,
        'a disabled webhook',
      );
      expect(value(s, 'dsync_webhooks_disabled')).to.equal(1);
      expect(value(s, 'dsync_dead_letters_pending')).to.equal(1);
    });

    if (kind === 'redis') {
      it('times store commands and counts failed ones by command name', async () => {
        await (store as RedisStore).redis.call('NOSUCHCOMMAND').catch(() => undefined);
        const s = await scrape(port);
        const counts = [...s.entries()].filter(([k]) => k.startsWith('dsync_store_command_duration_seconds_count{'));
        expect(counts.length).to.be.above(2);
        expect(counts.reduce((sum, [, v]) => sum + v, 0)).to.be.above(10);
        expect(value(s, 'dsync_store_errors_total{command="nosuchcommand"}')).to.equal(1);
      });

      it('does not count a Lua script reloaded after NOSCRIPT as a store error', async () => {
        const redis = (store as RedisStore).redis;
        const dir = await service.createDirectory({ tenant: 'noscript' });
        await redis.script('FLUSH'); // as after a Redis restart or failover: every EVALSHA answers NOSCRIPT once
        const before = value(await scrape(port), 'dsync_store_errors_total{command="evalsha"}') ?? 0;
        expect(
          (
            await service.scim(dir, 'POST', '/Users', {
              schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
              userName: 'noscript@acme.io',
            })
          ).status,
        ).to.equal(201);
        const s = await scrape(port);
        expect(value(s, 'dsync_store_errors_total{command="evalsha"}') ?? 0).to.equal(before);
        expect(
          value(s, 'dsync_store_command_duration_seconds_count{command="eval"}'),
          'the script was loaded again',
        ).to.be.above(0);
      });
    }
  });
}
