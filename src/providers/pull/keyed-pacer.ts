/**
 * Paces requests per key (an HRIS company: HiBob counts 50 calls a minute across all of a company's calls), and
 * holds every request of a key back once the provider said to wait (429/503 with `Retry-After`), while other
 * keys go on at full speed. Per process: several directories of one company share the budget here.
 */
import { setTimeout as sleep } from 'node:timers/promises';

/** Past this many keys, those whose slot has passed are forgotten (a key is a company). */
const MAX_KEYS = 10_000;

export class KeyedPacer {
  private readonly next = new Map<string, number>();

  /** `perMinute(key)`: the key's budget; 0 = not paced (only held back after a 429). */
  constructor(private readonly perMinute: (key: string) => number) {}

  /** Resolves when the caller may start one request for `key` (its slot is claimed at once: callers queue). */
  async take(key: string): Promise<void> {
    const rate = this.perMinute(key);
    const now = Date.now();
    const at = Math.max(now, this.next.get(key) ?? 0);
    if (rate > 0 || at > now) this.remember(key, at + (rate > 0 ? 60_000 / rate : 0));
    if (at > now) await sleep(at - now);
  }

  /** The provider said to wait `ms` before any further request of `key`. */
  block(key: string, ms: number): void {
    const until = Date.now() + ms;
    if (until > (this.next.get(key) ?? 0)) this.remember(key, until);
  }

  private remember(key: string, at: number): void {
    if (this.next.size >= MAX_KEYS) {
      const now = Date.now();
      for (const [k, t] of this.next) if (t <= now) this.next.delete(k);
    }
    this.next.set(key, at);
  }
}
