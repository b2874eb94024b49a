/**
 * `resource` ordering in process, against both stores, judged by the checker (test/support/resource-order.ts)
 * from what the receiver saw: random failures over a random SCIM workload, a poison user, the receiver's pause
 * (429 Retry-After) and 410 holding the whole directory, replay, batch mode, and `directory` ordering beside it.
 */
import { expect } from 'chai';
import { SECRET } from '../support/dsync-process.js';
import { FaultReceiver } from '../support/fault-receiver.js';
import { STORE_KINDS, openStore, sleep, startService, until, type Service } from '../support/harness.js';
import { seeded } from '../support/path-spellings.js';
import { expectResourceOrder, namedResources } from '../support/resource-order.js';

const PATCH_OP = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const RETRIES = Array(12).fill(20);

for (const kind of STORE_KINDS) {
  describe(`resource ordering (${kind} store)`, function () {
    this.timeout(60_000);
    let svc: Service;
    let running: Service | undefined;
    let hooks: FaultReceiver;

    async function start(options: Parameters<typeof startService>[1] = {}) {
      running = svc = await startService(await openStore(kind, 4), {
        ...options,
        webhook: { retrySchedule: RETRIES, ...options.webhook },
        delivery: { ordering: 'resource', ...options.delivery },
      });
    }
    beforeEach(async () => {
      hooks = await new FaultReceiver().open();
    });
    afterEach(async () => {
      await running?.close();
      running = undefined;
      await hooks.close();
    });

    const directory = () => svc.createDirectory({ webhook_url: hooks.url, webhook_secret: SECRET });
    const log = async (d: { id: string }) =>
      (await svc.dsync.store.readEvents(d.id, null, 100_000)).map(
        (e) => JSON.parse(e.json) as { id: string; event: string; sequence: number; data: any },
      );
    async function createUser(d: any, name: string): Promise<string> {
      const res = await svc.scim(d, 'POST', '/Users', {
        userName: `${name}@x.io`,
        name: { givenName: name, familyName: 'T' },
      });
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      return res.body.id as string;
    }
    async function ok(p: Promise<{ status: number; body: any }>) {
      const res = await p;
      expect(res.status, JSON.stringify(res.body)).to.be.oneOf([200, 201, 204]);
      return res.body;
    }
    /** Users, groups, memberships added and removed, updates, deletions, in a seeded random order. */
    async function randomWorkload(d: any, seed: number, steps: number): Promise<void> {
      const rnd = seeded(seed);
      const users: string[] = [];
      const groups: string[] = [];
      for (let i = 0; i < 8; i++) users.push(await createUser(d, `s${seed}u${i}`));
      for (let i = 0; i < 3; i++)
        groups.push((await ok(svc.scim(d, 'POST', '/Groups', { displayName: `s${seed}g${i}` }))).id);
      const pick = (list: string[]) => list[Math.floor(rnd() * list.length)]!;
      let created = users.length;
      for (let s = 0; s < steps; s++) {
        const r = rnd();
        if (r < 0.2) users.push(await createUser(d, `s${seed}u${created++}`));
        else if (r < 0.45) {
          const op = rnd() < 0.7 ? 'add' : 'remove';
          const user = pick(users);
          await ok(
            svc.scim(d, 'PATCH', `/Groups/${pick(groups)}`, {
              schemas: [PATCH_OP],
              Operations: [
                op === 'add'
                  ? { op, path: 'members', value: [{ value: user }] }
                  : { op, path: `members[value eq "${user}"]` },
              ],
            }),
          );
        } else if (r < 0.75)
          await ok(
            svc.scim(d, 'PATCH', `/Users/${pick(users)}`, {
              schemas: [PATCH_OP],
              Operations: [{ op: 'replace', path: 'title', value: `t${s}` }],
            }),
          );
        else if (r < 0.85)
          await ok(
            svc.scim(d, 'PATCH', `/Groups/${pick(groups)}`, {
              schemas: [PATCH_OP],
              Operations: [{ op: 'replace', path: 'displayName', value: `s${seed}g-${s}` }],
            }),
          );
        else if (users.length > 4) {
          const user = users.splice(Math.floor(rnd() * users.length), 1)[0]!;
          await ok(svc.scim(d, 'DELETE', `/Users/${user}`));
        }
      }
    }

    it('random failures over a random workload: per-resource order, every event at least once, many POSTs in flight', async () => {
      await start();
      const seed = 1000 + Math.floor(Math.random() * 1000);
      const rnd = seeded(seed);
      hooks.answer = () => ({ status: rnd() < 0.3 ? 500 : 200, delayMs: Math.floor(rnd() * 15) });
      const d = await directory();
      await randomWorkload(d, seed, 150);
      const events = await log(d);
      await until(
        () => hooks.ackedCount() >= events.length,
        () => `seed ${seed}: all ${events.length} events (got ${hooks.ackedCount()})`,
        30_000,
      );
      expect(
        expectResourceOrder(`seed ${seed}`, events, hooks.posts(d.id)).resentAfterAck,
        `seed ${seed}: sent again after a 2xx`,
      ).to.equal(0);
      expect(hooks.maxInFlight, `seed ${seed}: POSTs in flight at once`).to.be.above(1);
      expect((await svc.api('GET', `/api/v1/directory-sync/${d.id}/dead-letters`)).body.data).to.deep.equal([]);
    });

    it("directories in line for the process's POSTs, random failures: per-resource order, every event, the POSTs shared", async () => {
      // More directories with a backlog than POSTs: passes wait in line, and a slot handed to a waiting pass with
      // events ready sends them from the hand-over, while answers (some failing, to be retried) keep coming.
      await start({ delivery: { postsPerDirectory: 2, postsPerProcess: 3 } });
      const seed = 3000 + Math.floor(Math.random() * 1000);
      const rnd = seeded(seed);
      let open!: () => void;
      const written = new Promise<void>((resolve) => (open = resolve));
      hooks.answer = () => ({ status: rnd() < 0.3 ? 500 : 200, delayMs: Math.floor(rnd() * 15), until: written });
      const dirs = [await directory(), await directory(), await directory(), await directory()];
      await Promise.all(dirs.map((d, i) => randomWorkload(d, seed + i, 40)));
      open();
      const logs = await Promise.all(dirs.map(log));
      const total = logs.reduce((n, events) => n + events.length, 0);
      await until(
        () => hooks.ackedCount() >= total,
        () => `seed ${seed}: all ${total} events (got ${hooks.ackedCount()})`,
        30_000,
      );
      dirs.forEach((d, i) => {
        const check = expectResourceOrder(`seed ${seed}, directory ${i}`, logs[i]!, hooks.posts(d.id));
        expect(check.resentAfterAck, `seed ${seed}, directory ${i}: sent again after a 2xx`).to.equal(0);
      });
      expect(hooks.maxInFlight, `seed ${seed}: POSTs in flight in the process`).to.equal(3);
    });

    it('a poison event holds back only the events naming its user (and, through them, theirs) until it is dead-lettered', async () => {
      await start({ webhook: { retrySchedule: Array(20).fill(150) } });
      const d = await directory();
      // The receiver refuses the creation of one user, every time (a bug in the application for that user).
      const isPoison = (body: any) => body.event === 'user.created' && body.data.raw.userName === 'poison@x.io';
      hooks.answer = (seen) => (isPoison(seen.body) ? { status: 500 } : { status: 200, delayMs: 5 });
      const poisonId = await createUser(d, 'poison');
      const others: string[] = [];
      for (let i = 0; i < 30; i++) others.push(await createUser(d, `ok${i}`));
      await ok(
        svc.scim(d, 'POST', '/Groups', {
          displayName: 'with-poison',
          members: [{ value: poisonId }, { value: others[0] }],
        }),
      );
      await ok(
        svc.scim(d, 'PATCH', `/Users/${poisonId}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'replace', path: 'title', value: 'later' }],
        }),
      );
      await ok(
        svc.scim(d, 'PATCH', `/Users/${others[1]}`, {
          schemas: [PATCH_OP],
          Operations: [{ op: 'replace', path: 'title', value: 'later' }],
        }),
      );
      const events = await log(d);
      const poison = events.find((e) => e.event === 'user.created' && e.data.id === poisonId)!;
      // What waits for it: events naming its user, and, through them, every later event naming their resources.
      const held = new Set(namedResources(poison));
      const dependents = events
        .slice(events.indexOf(poison) + 1)
        .filter((e) => namedResources(e).some((r) => held.has(r)) && namedResources(e).every((r) => held.add(r)))
        .map((e) => e.id);
      const free = events.filter((e) => e !== poison && !dependents.includes(e.id)).map((e) => e.id);
      const letters = async () =>
        (await svc.api('GET', `/api/v1/directory-sync/${d.id}/dead-letters`)).body.data as any[];
      // Every event not naming the poison user arrives while the poison event is still being retried.
      const acked = () =>
        new Set(
          hooks
            .events()
            .filter((x) => x.d.acked)
            .map((x) => x.event.id as string),
        );
      await until(() => free.every((id) => acked().has(id)), 'the events not naming the poison user', 10_000);
      expect(await letters(), 'the poison event is still retrying when the others are through').to.have.length(0);
      expect(
        dependents.filter((id) => acked().has(id)),
        'events held back by the poison event, before its dead letter',
      ).to.deep.equal([]);
      expect(dependents.length, 'the group membership and the update of the poison user wait').to.be.at.least(2);
      await until(
        () => dependents.every((id) => acked().has(id)),
        "the poison user's later events, after its dead letter",
        10_000,
      );
      const dead = await letters();
      expect(dead.flatMap((l) => l.events.map((e: string) => JSON.parse(e).id))).to.deep.equal([poison.id]);
      const check = expectResourceOrder('poison', events, hooks.posts(d.id), new Set([poison.id]));
      // Passes ended and started again while the poison event waited: what they had delivered stayed delivered.
      expect(check.resentAfterAck, 'events sent again after their 2xx').to.equal(0);
    });

    it("the receiver's 429 with Retry-After pauses the whole directory; a 410 stops it until the webhook is set again", async () => {
      await start();
      const d = await directory();
      let answered429 = 0;
      hooks.answer = () => {
        if (answered429 === 0) {
          answered429 = Date.now();
          return { status: 429, headers: { 'retry-after': '2' } };
        }
        return { status: 200 };
      };
      for (let i = 0; i < 10; i++) await createUser(d, `p${i}`);
      const events = await log(d);
      await until(() => hooks.ackedCount() >= events.length, 'all events after the pause', 10_000);
      // Deliveries sent before the engine read the 429 may land just after it (half a second on a loaded
      // machine); nothing is sent later in the 2 s pause.
      const sentInPause = hooks.seen.filter((s) => s.at > answered429 + 500 && s.at < answered429 + 1900);
      expect(sentInPause.map((s) => s.body.id)).to.deep.equal([]);
      expect(hooks.seen.filter((s) => s.at >= answered429 + 1900).length, 'POSTs after the pause').to.be.above(0);
      expectResourceOrder('429', events, hooks.posts(d.id));

      // 410: the webhook is disabled; nothing more goes until it is set again.
      hooks.answer = () => ({ status: 410 });
      await createUser(d, 'gone0');
      await until(
        async () => Boolean((await svc.api('GET', `/api/v1/directory-sync/${d.id}`)).body.data.webhook_disabled_at),
        'disabled',
      );
      const before = hooks.seen.length;
      await createUser(d, 'gone1');
      await sleep(300);
      expect(hooks.seen.length, 'POSTs after the 410').to.equal(before);
      hooks.answer = () => ({ status: 200 });
      await svc.api('PATCH', `/api/v1/directory-sync/${d.id}`, { webhook_url: hooks.url });
      const all = await log(d);
      await until(() => hooks.ackedCount() >= all.length, 'everything once the webhook is set again', 10_000);
      expectResourceOrder('410', all, hooks.posts(d.id));
    });

    it('replay re-delivers every event since a time, in resource order', async () => {
      await start();
      const d = await directory();
      hooks.answer = () => ({ status: 200 });
      for (let i = 0; i < 5; i++) await createUser(d, `old${i}`);
      await until(() => hooks.ackedCount() >= 5, 'the first five');
      await sleep(5);
      const since = new Date().toISOString();
      await sleep(5);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push(await createUser(d, `new${i}`));
      await ok(svc.scim(d, 'POST', '/Groups', { displayName: 'g', members: ids.map((value) => ({ value })) }));
      const events = await log(d);
      await until(() => hooks.ackedCount() >= events.length, 'all events');
      const before = hooks.seen.length;
      expect((await svc.api('POST', `/api/v1/directory-sync/${d.id}/events/replay`, { since })).status).to.equal(202);
      const replayed = events.filter((e) => !e.data.raw?.userName?.startsWith('old'));
      await until(() => hooks.seen.length - before >= replayed.length, 'the replay', 10_000);
      await sleep(100);
      const again = hooks.seen.slice(before);
      expect(again.map((s) => s.body.id).sort()).to.deep.equal(replayed.map((e) => e.id).sort());
      expectResourceOrder(
        'replay',
        replayed,
        again.map((s) => ({ events: [s.body], arrived: s.arrived, ...(s.acked && { acked: s.ackedAt! }) })),
      );
    });

    it('batch mode: chains of one group in order within a batch, several batches in flight, checker passes', async () => {
      await start({ webhook: { batchSize: 7 }, delivery: { postsPerDirectory: 4 } });
      const d = await directory();
      hooks.answer = () => ({ status: 200, delayMs: 30 });
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) ids.push(await createUser(d, `b${i}`));
      await ok(svc.scim(d, 'POST', '/Groups', { displayName: 'all', members: ids.map((value) => ({ value })) }));
      const events = await log(d);
      await svc.dsync.processEvents();
      expect(hooks.ackedCount()).to.equal(events.length);
      for (const s of hooks.seen) expect(s.body).to.be.an('array').with.length.at.most(7);
      expect(hooks.maxInFlight, 'batches in flight at once').to.be.above(1);
      expectResourceOrder('batch', events, hooks.posts(d.id));
      const chain = hooks.seen.find((s) => s.body.filter((e: any) => e.event === 'group.user_added').length > 1);
      expect(chain, 'a batch with several memberships of the group, in order').to.not.equal(undefined);
    });

    it("the process's POSTs in flight are shared by its directories (postsPerProcess), each still sending many", async () => {
      await start({ delivery: { postsPerDirectory: 4, postsPerProcess: 6 } });
      // The first answers wait until every directory has a backlog: on a loaded machine the writes could
      // otherwise trickle in no faster than they are delivered, and no moment would need more than one directory.
      let open!: () => void;
      const backlog = new Promise<void>((resolve) => (open = resolve));
      hooks.answer = () => ({ status: 200, delayMs: 30, until: backlog });
      const dirs = [await directory(), await directory(), await directory()];
      await Promise.all(dirs.flatMap((d, j) => Array.from({ length: 12 }, (_, i) => createUser(d, `cap${j}-${i}`))));
      await until(() => hooks.inFlight >= 6, 'six POSTs held by the receiver');
      await sleep(300);
      expect(hooks.inFlight, 'POSTs in flight while all are held').to.equal(6);
      open();
      for (const d of dirs) {
        const events = await log(d);
        await until(() => hooks.posts(d.id).filter((p) => p.acked).length >= events.length, 'all events');
        expectResourceOrder(`directory ${d.id}`, events, hooks.posts(d.id));
      }
      expect(hooks.maxInFlight, 'POSTs in flight in the process (4 a directory, 6 in all)').to.be.within(5, 6);
    });

    it("a directory's backlog does not keep another directory waiting for the process's POSTs", async () => {
      // One directory may use every POST of the process (postsPerDirectory = postsPerProcess): the POSTs its
      // answers free go round to the directory in line for one, not back to the busy one.
      await start({ delivery: { postsPerDirectory: 4, postsPerProcess: 4 } });
      // The big directory's answers wait until the small one's events exist, so its backlog is certain however
      // slowly the creates go on a loaded machine.
      let release!: () => void;
      const created = new Promise<void>((resolve) => (release = resolve));
      hooks.answer = () => ({ status: 200, delayMs: 40, until: created });
      const [big, small] = [await directory(), await directory()];
      const BIG = 150;
      const SMALL = 20;
      await Promise.all(Array.from({ length: BIG }, (_, i) => createUser(big, `big${i}`)));
      await until(() => hooks.posts(big.id).length >= 4, 'the big directory taking every POST');
      await Promise.all(Array.from({ length: SMALL }, (_, i) => createUser(small, `small${i}`)));
      release();
      const acked = (d: { id: string }) => hooks.posts(d.id).flatMap((p) => (p.acked === undefined ? [] : [p.acked]));
      await until(() => acked(small).length === SMALL, `the small directory's ${SMALL} events`, 20_000);
      await until(() => acked(big).length === BIG, "the big directory's events", 30_000);
      const smallDone = Math.max(...acked(small));
      // Sharing the four POSTs evenly, the big directory has two of them while the small one's 20 events go, about
      // 4 + 20 acknowledged meanwhile; keeping the three it held, it would have about 4 + 60.
      const bigBefore = acked(big).filter((tick) => tick < smallDone).length;
      expect(bigBefore, "the big directory's events acknowledged before the small one's last").to.be.at.most(40);
    });

    it('`directory` ordering keeps one POST in flight and log order; `resource` sends unrelated events at once', async () => {
      for (const ordering of ['directory', 'resource'] as const) {
        await running?.close();
        running = undefined;
        hooks.maxInFlight = 0;
        await start({ delivery: { ordering } });
        // Answers wait until every user is created: how many POSTs pile up then is the ordering's doing, not the
        // race between the creates and the receiver's answers.
        let release!: () => void;
        const created = new Promise<void>((resolve) => (release = resolve));
        hooks.answer = () => ({ status: 200, until: created });
        const d = await directory();
        await Promise.all(Array.from({ length: 20 }, (_, i) => createUser(d, `${ordering}${i}`)));
        if (ordering === 'resource')
          await until(() => hooks.maxInFlight > 4, 'resource: POSTs piling up behind the held answers');
        release();
        const events = await log(d);
        await until(() => hooks.posts(d.id).filter((p) => p.acked).length >= events.length, `${ordering}: all events`);
        if (ordering === 'directory') {
          expect(hooks.maxInFlight).to.equal(1);
          expect(hooks.posts(d.id).map((p) => p.events[0]!.id)).to.deep.equal(events.map((e) => e.id));
        } else expect(hooks.maxInFlight).to.be.above(4);
      }
    });
  });
}
