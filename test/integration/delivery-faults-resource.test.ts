/**
 * The process-level delivery faults of delivery-faults.test.ts and delivery-faults-batch.test.ts, rerun with
 * `resource` ordering (many POSTs in flight per directory): SIGKILL mid-flight, a kill while retrying, a replica
 * taking over a directory whose process stopped, a receiver failing at random, batch mode. Real `dsync serve`
 * processes, a receiver verifying every signature; the judge is the resource-order checker
 * (test/support/resource-order.ts) over each directory's own event log, with users, groups and memberships.
 *
 * Redis logical database 14 of the single server belongs to this file; on the cluster each suite flushes every
 * master first.
 */
import { expect } from 'chai';
import { once } from 'node:events';
import type { RedisClient } from '../../src/store/redis/client.js';
import { expectResourceDelivered, heldLeases, lapseLeases, logEvents } from '../support/delivery-truth.js';
import {
  api,
  createDirectories,
  createUsers,
  dumpOutputs,
  killAll,
  live,
  scimSecrets,
  serve,
  type Dir,
  type DsyncProc,
} from '../support/dsync-process.js';
import { FAULT_BACKENDS } from '../support/fault-backends.js';
import { FaultReceiver } from '../support/fault-receiver.js';
import { sleep, until } from '../support/harness.js';
import { seeded } from '../support/path-spellings.js';

const DB = 14;
const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

async function scim(proc: DsyncProc, dir: Dir, method: string, path: string, body?: unknown): Promise<any> {
  const res = await fetch(`${proc.url}/api/scim/v2.0/${dir.id}${path}`, {
    method,
    headers: { authorization: `Bearer ${scimSecrets.get(dir.id)}`, 'content-type': 'application/scim+json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`SCIM ${method} ${path} on ${proc.name}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Groups of the directory's users (one membership event each), then updates of random users and groups. */
async function groupsAndUpdates(
  proc: DsyncProc,
  dir: Dir,
  seed: number,
  groups: number,
  updates: number,
): Promise<void> {
  const rnd = seeded(seed);
  const users = ((await scim(proc, dir, 'GET', '/Users?count=1000')).Resources as Array<{ id: string }>).map(
    (u) => u.id,
  );
  const groupIds: string[] = [];
  for (let g = 0; g < groups; g++) {
    const members = users.filter(() => rnd() < 0.3).map((value) => ({ value }));
    groupIds.push((await scim(proc, dir, 'POST', '/Groups', { displayName: `g${seed}-${g}`, members })).id);
  }
  for (let i = 0; i < updates; i++) {
    if (rnd() < 0.7) {
      const user = users[Math.floor(rnd() * users.length)]!;
      await scim(proc, dir, 'PATCH', `/Users/${user}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'replace', path: 'title', value: `t${i}` }],
      });
    } else {
      const group = groupIds[Math.floor(rnd() * groupIds.length)]!;
      const user = users[Math.floor(rnd() * users.length)]!;
      await scim(proc, dir, 'PATCH', `/Groups/${group}`, {
        schemas: [PATCH_OP],
        Operations: [{ op: 'add', path: 'members', value: [{ value: user }] }],
      });
    }
  }
}

const logLength = async (redis: RedisClient, dirs: Dir[]) =>
  (await Promise.all(dirs.map((d) => redis.xlen(`dsync:{${d.id}}:ev`)))).reduce((a, b) => a + b, 0);

for (const backend of FAULT_BACKENDS) {
  const env = (extra: Record<string, string> = {}) => backend.env(DB, { DSYNC_WEBHOOK_ORDERING: 'resource', ...extra });

  describe(`delivery faults (${backend.name}): resource ordering`, function () {
    this.timeout(90_000);
    let redis: RedisClient;
    let receiver: FaultReceiver;

    beforeEach(async () => {
      redis = await backend.fresh(DB);
      receiver = await new FaultReceiver().open();
    });
    afterEach(async function () {
      if (this.currentTest?.state === 'failed') dumpOutputs(live);
      await killAll();
      await receiver.close();
      redis.disconnect();
    });

    it('SIGKILL with many POSTs in flight: a new process re-sends only what was not acknowledged; per-resource order holds', async () => {
      const DIRS = 2;
      // Delivery runs behind the writes: 500 ms a POST while they go on (a loaded machine writes slowly, and a
      // delivery that kept up would be over before the kill), then 20 ms; 16 in flight per directory.
      let writing = true;
      receiver.answer = () => ({ status: 200, delayMs: writing ? 500 : 20 });
      const first = await serve('serve#1', env());
      const dirs = await createDirectories(first, DIRS, receiver.url, 'rcrash');
      await createUsers([first], dirs, 150, 'u');
      for (const [i, dir] of dirs.entries()) await groupsAndUpdates(first, dir, i + 1, 6, 150);
      writing = false;
      const total = await logLength(redis, dirs);
      // The kill lands with several POSTs in flight: a stretch of the log where one resource's events follow each
      // other (a group's members) goes one POST at a time, so wait for a moment with more than one.
      let inFlightAtKill = 0;
      await until(
        () => receiver.ackedCount() >= total / 3 && (inFlightAtKill = receiver.inFlight) > 1,
        () =>
          `a third of ${total} events with POSTs in flight (got ${receiver.ackedCount()}, ${receiver.inFlight} in flight)`,
        30_000,
      );
      first.child.kill('SIGKILL');
      await once(first.child, 'exit');
      const atKill = receiver.ackedCount();
      expect(atKill, 'the kill must land mid-delivery').to.be.below(total - 100);
      expect(inFlightAtKill, 'POSTs in flight when killed').to.be.above(1);
      const owners = new Set((await heldLeases(redis, dirs)).values());

      await serve('serve#2', env());
      await lapseLeases(redis, dirs, owners);
      await until(
        () => receiver.ackedCount() >= total,
        () => `all ${total} events after the restart (got ${receiver.ackedCount()})`,
        60_000,
      );
      await sleep(300);
      const checks = await expectResourceDelivered(redis, receiver, dirs);
      // Saved as acknowledged (one save at a time, after 100 deliveries or 250 ms): a re-send is a POST in flight
      // at the kill (16 a directory) or one of at most 100 acknowledged since the last save began (at 20 ms a
      // POST, 32 in flight make 1,600 a second: 100 in 63 ms); 400 leaves room for a save's round trip on a
      // loaded machine.
      const resent = checks.reduce((n, c) => n + c.duplicates, 0);
      expect(resent, 're-sent events after the kill').to.be.at.most(400);
      expect(resent, 're-sent events after the kill, against the events delivered').to.be.below(total / 4);
    });

    it('killed while a failed event waits for its retry: the new process resumes it; the other events went on meanwhile', async () => {
      const poison = 'hold-';
      let healthy = false;
      receiver.answer = (d) =>
        !healthy && !Array.isArray(d.body) && String(d.body.data?.raw?.userName ?? '').startsWith(poison)
          ? { status: 500 }
          : { status: 200 };
      const first = await serve('serve#1', env({ DSYNC_WEBHOOK_RETRY_SCHEDULE: '2s,2s,2s,2s,2s,2s' }));
      const [dir] = await createDirectories(first, 1, receiver.url, 'rretry');
      await createUsers([first], [dir!], 1, 'hold', 1);
      await createUsers([first], [dir!], 40, 'free');
      await until(
        () => receiver.ackedCount() >= 40,
        () => `the 40 other events while the first one fails (got ${receiver.ackedCount()})`,
        10_000,
      );
      // The last acknowledgements' save lands (after 100 deliveries or 250 ms): its runs of done events reach the
      // log's last event.
      const lastSeq = (await redis.xrevrange(`dsync:{${dir!.id}}:ev`, '+', '-', 'COUNT', 1))[0]![0];
      const saved = async () =>
        JSON.parse((await redis.hget(`dsync:{${dir!.id}}:dstate`, 'ahead')) ?? '{}') as {
          done?: Array<[string, string]>;
          failing?: unknown[];
        };
      await until(
        async () => ((await saved()).done ?? []).some(([, last]) => last === lastSeq),
        'the save of the last acknowledgements',
        5_000,
      );
      expect((await saved()).failing, 'the failed delivery, saved with its attempts').to.have.length(1);
      first.child.kill('SIGKILL');
      await once(first.child, 'exit');
      const owners = new Set((await heldLeases(redis, [dir!])).values());
      healthy = true;
      const before = receiver.seen.length;
      await serve('serve#2', env());
      await lapseLeases(redis, [dir!], owners);
      await until(
        () => receiver.ackedCount() >= 41,
        () => `the held event after the restart (got ${receiver.ackedCount()})`,
        15_000,
      );
      await sleep(300);
      expect(
        receiver.seen.slice(before).map((d) => d.body.data.raw.userName),
        'sent by the new process: only the failed event',
      ).to.have.length(1);
      await expectResourceDelivered(redis, receiver, [dir!], 41);
    });

    it('a replica takes over a directory whose deliverer stopped mid-flight (lease lapsed); writes through both', async () => {
      receiver.answer = () => ({ status: 200, delayMs: 15 });
      const one = await serve('serve#1', env());
      const two = await serve('serve#2', env());
      const dirs = await createDirectories(one, 3, receiver.url, 'rtake');
      await createUsers([one, two], dirs, 120, 'u');
      for (const [i, dir] of dirs.entries()) await groupsAndUpdates(i % 2 ? two : one, dir, 10 + i, 4, 60);
      const total = await logLength(redis, dirs);
      await until(
        async () => (await heldLeases(redis, dirs)).size > 0 && receiver.ackedCount() > total / 4,
        'delivery under way',
        20_000,
      );
      // serve#1 stops (SIGSTOP: its POSTs hang unanswered, its leases lapse): serve#2 takes its directories over.
      one.child.kill('SIGSTOP');
      try {
        await lapseLeases(redis, dirs, new Set((await heldLeases(redis, dirs)).values()));
        await createUsers([two], dirs, 10, 'later');
        const all = await logLength(redis, dirs);
        await until(
          () => receiver.ackedCount() >= all,
          () => `all ${all} events through the other replica (got ${receiver.ackedCount()})`,
          40_000,
        );
      } finally {
        one.child.kill('SIGCONT');
      }
      await sleep(500);
      await expectResourceDelivered(redis, receiver, dirs);
      expect(receiver.maxInFlight, 'POSTs in flight at once').to.be.above(3);
    });

    it('a receiver failing a third of the POSTs at random (and timing some out): order per resource, every event', async () => {
      const seed = Math.floor(Math.random() * 1e6);
      const rnd = seeded(seed);
      receiver.answer = () => {
        const r = rnd();
        return r < 0.25
          ? { status: 500 }
          : r < 0.33
            ? { status: 200, delayMs: 1500 }
            : { status: 200, delayMs: Math.floor(rnd() * 10) };
      };
      const srv = await serve('serve', env({ DSYNC_WEBHOOK_TIMEOUT: '1s' }));
      const dirs = await createDirectories(srv, 2, receiver.url, 'rrandom');
      await createUsers([srv], dirs, 80, 'u');
      for (const [i, dir] of dirs.entries()) await groupsAndUpdates(srv, dir, seed + i, 5, 80);
      const total = await logLength(redis, dirs);
      await until(
        () => receiver.ackedCount() >= total,
        () => `seed ${seed}: all ${total} events (got ${receiver.ackedCount()})`,
        60_000,
      );
      await expectResourceDelivered(redis, receiver, dirs);
    });

    it('batch mode: the cron pass and the CLI at once, several batches in flight, a kill mid-pass; order per resource', async () => {
      const BATCH = { DSYNC_WEBHOOK_BATCH_SIZE: '20' };
      receiver.answer = () => ({ status: 200, delayMs: 30 });
      const srv = await serve('serve(batch)', env(BATCH));
      const dirs = await createDirectories(srv, 2, receiver.url, 'rbatch');
      await createUsers([srv], dirs, 100, 'u');
      for (const [i, dir] of dirs.entries()) await groupsAndUpdates(srv, dir, 20 + i, 5, 60);
      const total = await logLength(redis, dirs);
      const pass = api(srv, 'POST', '/api/v1/dsync/cron/process-events').catch(() => undefined);
      await until(() => receiver.ackedCount() >= total / 4, 'a quarter delivered', 20_000);
      srv.child.kill('SIGKILL');
      await once(srv.child, 'exit');
      await pass;
      await lapseLeases(redis, dirs, new Set((await heldLeases(redis, dirs)).values()));
      const srv2 = await serve('serve(batch)#2', env(BATCH));
      const res = await api(srv2, 'POST', '/api/v1/dsync/cron/process-events');
      expect(res.status).to.equal(200);
      expect(receiver.ackedCount()).to.equal(total);
      for (const d of receiver.seen) expect(d.body).to.be.an('array').with.length.at.most(20);
      expect(receiver.maxInFlight, 'batches in flight at once').to.be.above(1);
      for (const dir of dirs) expect((await logEvents(redis, dir.id)).length).to.be.above(100);
      await expectResourceDelivered(redis, receiver, dirs);
    });
  });
}
