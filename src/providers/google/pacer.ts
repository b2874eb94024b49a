/**
 * Spaces Directory API requests under a queries-per-minute budget (Google's default: 2,400 per minute per
 * project). One pacer per process is shared by every directory, since the quota is the OAuth client's.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export class Pacer {
  private nextSlot = 0;
  private readonly intervalMs: number;

  /** `perMinute` 0 = not paced. */
  constructor(perMinute: number) {
    this.intervalMs = perMinute > 0 ? 60_000 / perMinute : 0;
  }

  /** Resolves when the caller may start one request. */
  async take(): Promise<void> {
    if (this.intervalMs === 0) return;
    const now = Date.now();
    const at = Math.max(now, this.nextSlot);
    this.nextSlot = at + this.intervalMs;
    if (at > now) await sleep(at - now);
  }
}
