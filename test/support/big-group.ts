/**
 * Shared by the big-group regression test and benchmark: users seeded straight into the store (200,000 SCIM
 * creates would take minutes and prove nothing here), a /healthz poller that measures how long the event loop
 * makes a request wait, and event counts read back from the directory's log.
 */
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';
import type { Store } from '../../src/core/store-port.js';

const USER_SCHEMA = 'urn:ietf:params:scim:schemas:core:2.0:User';

/** Creates `n` users with ids `u<i>` (short, so 20,000 of them fit one 1 MB request), no events. */
export async function seedUsers(store: Store, directoryId: string, n: number): Promise<string[]> {
  const ids = Array.from({ length: n }, (_, i) => `u${i.toString(36)}`);
  const now = Date.now();
  for (let i = 0; i < n; i += 1000) {
    await Promise.all(
      ids.slice(i, i + 1000).map(async (id) => {
        const userName = `${id}@acme.io`;
        const body = { schemas: [USER_SCHEMA], userName, active: true };
        const result = await store.createUser(directoryId, { id, body, created: now, lastModified: now, version: 1 }, { userName, emails: [] }, []);
        if (result.status !== 'ok') throw new Error(`seeding user ${id}: ${result.status}`);
      }),
    );
  }
  return ids;
}

/** CPU time (µs) of the main thread on Linux (its schedstat, in ns; about 30 µs a read), else of the process. */
const loopCpuMicros: () => number = (() => {
  const schedstat = `/proc/self/task/${process.pid}/schedstat`;
  try {
    readFileSync(schedstat, 'utf8');
    return () => Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1000;
  } catch {
    return () => {
      const used = process.cpuUsage();
      return used.user + used.system;
    };
  }
})();

/**
 * Polls `GET /healthz` every ~10 ms while running; `maxMs` is the longest a poll waited for its answer.
 * In-process, two more measures of the longest event-loop block:
 * - `loopMaxMs`: perf_hooks' event-loop delay (the longest gap between ticks of a 1 ms timer, so at most ~1 ms
 *   above the longest block). Wall time: on a machine loaded by other processes it includes the time this
 *   process waited for a core.
 * - `cpuMaxMs`: the same gaps measured in CPU time the main thread (the event loop's) used during each (at most
 *   the gap): what its own work blocked, whatever the machine's load. On Linux it is that thread's alone
 *   (/proc schedstat, in ns); elsewhere the whole process's (process.cpuUsage), which also counts the garbage
 *   collector's helper threads running beside it and so can only overstate a block (on a loaded 2-core machine
 *   it did, to 287 ms).
 */
export class StallProbe {
  maxMs = 0;
  loopMaxMs = 0;
  cpuMaxMs = 0;
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
    let cpu = loopCpuMicros();
    this.ticker = setInterval(() => {
      const used = loopCpuMicros() - cpu;
      const now = performance.now();
      this.cpuMaxMs = Math.max(this.cpuMaxMs, Math.min(now - wall, used / 1000));
      wall = now;
      cpu = loopCpuMicros();
    }, 1);
    this.running = (async () => {
      // A poll is due 10 ms after the previous one ended; its wait runs from then, so an event-loop block that
      // delays the timer counts too (an outside poller would have sent its request into that block).
      let due = performance.now();
      while (!this.stopping) {
        const res = await fetch(`${this.url}/healthz`);
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
