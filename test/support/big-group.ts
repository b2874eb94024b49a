/**
 * Shared by the big-group regression test and benchmark: users seeded straight into the store (200,000 SCIM
 * creates would take minutes and prove nothing here), a /healthz poller that measures how long the event loop
 * makes a request wait, and event counts read back from the directory's log.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Store } from '../../src/core/store-port.js';
import type { Service } from './harness.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';

/** Writes in flight at once while seeding: enough to keep Redis busy, few enough that the last queued one answers
 * well within the store's 500 ms command timeout on a loaded machine (1,000 at once timed out there). */
const SEED_BATCH = 100;

/** A SCIM PatchOp body of these operations. */
export const ops = (...Operations: unknown[]) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
  Operations,
});
/** Member references of these user ids. */
export const refs = (ids: string[]) => ids.map((value) => ({ value }));

/** A bench step that got another status than it needs stops the run, naming the step. */
export function expectStatus(status: number, want: number, what: string): void {
  if (status !== want) throw new Error(`${what}: status ${status}, expected ${want}`);
}

/**
 * Creates the group `All employees` with the first `size` of `users` as members: a POST of the first `batch`, then
 * PATCH adds of `batch` each (a request stays under 1 MB). Returns the group's id.
 */
export async function fillGroup(
  svc: Service,
  dir: Parameters<Service['scim']>[0],
  users: string[],
  size: number,
  batch: number,
): Promise<string> {
  const res = await svc.scim(dir, 'POST', '/Groups?excludedAttributes=members', {
    displayName: 'All employees',
    members: refs(users.slice(0, batch)),
  });
  expectStatus(res.status, 201, 'POST');
  const id: string = res.body.id;
  for (let i = batch; i < size; i += batch) {
    const patched = await svc.scim(
      dir,
      'PATCH',
      `/Groups/${id}`,
      ops({ op: 'add', path: 'members', value: refs(users.slice(i, i + batch)) }),
    );
    expectStatus(patched.status, 204, 'PATCH add');
  }
  return id;
}

/** Creates `n` users with ids `u<i>` (short, so 20,000 of them fit one 1 MB request), no events. */
export async function seedUsers(store: Store, directoryId: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => `u${i.toString(36)}`);
  const now = Date.now();
  for (let i = 0; i < n; i += SEED_BATCH) {
    await Promise.all(
      ids.slice(i, i + SEED_BATCH).map(async (id) => {
        const userName = `${id}@acme.io`;
        const body = { schemas: [USER_SCHEMA], userName, active: true };
        const result = await store.createUser(
          directoryId,
          { id, body, created: now, lastModified: now, version: 1 },
          { userName, emails: [] },
          [],
        );
        if (result.status !== 'ok') throw new Error(`seeding user ${id}: ${result.status}`);
      }),
    );
  }
  return ids;
}

/**
 * Polls `GET /healthz` every ~10 ms while running; `maxMs` is the longest a poll waited for its answer.
 * In-process, two more measures of the longest event-loop block:
 * - `loopMaxMs`: perf_hooks' event-loop delay (the longest gap between ticks of a 1 ms timer, so at most ~1 ms
 *   above the longest block). Wall time: on a machine loaded by other processes it includes the time this
 *   process waited for a core.
 * - `cpuMaxMs`: the same gaps measured in CPU time the main thread used during each (at most the gap): what its
 *   own work took, whatever the machine's load. Read from Linux's per-thread accounting
 *   (/proc/self/task/<pid>/schedstat, nanoseconds); elsewhere the whole process' CPU time, which also counts the
 *   garbage collector's helper threads and so can only overstate a block.
 * - `ownMaxMs` (Linux): the same gaps less the time the main thread was ready to run but waited for a core
 *   (schedstat's run delay): the block as this process made it, its waits for the collector's helper threads
 *   included, the other processes' load not. Equal to `cpuMaxMs` where schedstat is missing.
 */
const MAIN_THREAD_STAT = `/proc/self/task/${process.pid}/schedstat`;

/**
 * Milliseconds the main thread has run on a CPU and waited for one (Linux's per-thread accounting); elsewhere the
 * whole process' CPU time and no wait.
 */
export function threadTimes(): { cpu: number; waited: number } {
  try {
    const [cpu, waited] = readFileSync(MAIN_THREAD_STAT, 'utf8')
      .split(' ')
      .map((ns) => Number(ns) / 1e6);
    return { cpu: cpu!, waited: waited! };
  } catch {
    const { user, system } = process.cpuUsage();
    return { cpu: (user + system) / 1000, waited: 0 };
  }
}

export class StallProbe {
  maxMs = 0;
  loopMaxMs = 0;
  cpuMaxMs = 0;
  ownMaxMs = 0;
  polls = 0;
  private running: Promise<void> | undefined;
  private stopping = false;
  private readonly loop: IntervalHistogram = monitorEventLoopDelay({ resolution: 1 });
  private ticker: NodeJS.Timeout | undefined;

  constructor(private readonly url: string) {}

  start(): void {
    this.stopping = false;
    // A reset also forgets the last tick before the pause: the time between two steps is no delay.
    this.loop.reset();
    this.loop.enable();
    let wall = performance.now();
    let times = threadTimes();
    this.ticker = setInterval(() => {
      const now = performance.now();
      const next = threadTimes();
      const gap = now - wall;
      this.cpuMaxMs = Math.max(this.cpuMaxMs, Math.min(gap, next.cpu - times.cpu));
      this.ownMaxMs = Math.max(this.ownMaxMs, Math.max(0, gap - (next.waited - times.waited)));
      wall = now;
      times = next;
    }, 1);
    this.running = (async () => {
      // A poll is due 10 ms after the previous one ended; its wait runs from then, so an event-loop block that
      // delays the timer counts too (an outside poller would have sent its request into that block).
      let due = performance.now();
      while (!this.stopping) {
        // A pooled keep-alive connection the server has just closed fails at once: the poll goes again on a new
        // one, and its wait still runs from `due`.
        const res = await fetch(`${this.url}/healthz`).catch(() => fetch(`${this.url}/healthz`));
        await res.arrayBuffer();
        const end = performance.now();
        this.maxMs = Math.max(this.maxMs, end - due);
        this.polls++;
        due = end + 10;
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.running;
    clearInterval(this.ticker);
    this.loop.disable();
    if (this.loop.count > 0) this.loopMaxMs = Math.max(this.loopMaxMs, this.loop.max / 1e6);
  }
}

/** Counts the events logged after `after` by type; returns the counts and the new cursor. */
export async function countEvents(
  store: Store,
  directoryId: string,
  after: string | null,
): Promise<{ counts: Record<string, number>; last: string | null }> {
  const counts: Record<string, number> = {};
  let last = after;
  for (;;) {
    const page = await store.readEvents(directoryId, last, 5000);
    for (const e of page) {
      const type = /"event":"([^"]+)"/.exec(e.json)![1]!;
      counts[type] = (counts[type] ?? 0) + 1;
    }
    if (page.length === 0) return { counts, last };
    last = page.at(-1)!.seq;
  }
}

/** Every member id of a group, through the store's paging. */
export async function memberCount(store: Store, directoryId: string, groupId: string): Promise<number> {
  return (await store.groupMemberIds(directoryId, groupId, 0, 0)).total;
}
