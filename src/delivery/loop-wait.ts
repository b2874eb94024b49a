/**
 * A pass's loop waiting for something to do: an answer, a slot, its tick, or a time. A wake that comes while the
 * loop is busy elsewhere (reading the log) is kept for its next wait, which then returns at once: waiting for the
 * next one could stall the loop a tick.
 */
export class LoopWait {
  private waiter: (() => void) | undefined;
  private woken = false;
  /** The loop waits in `park`: for an answer or a slot, and nothing else (a slot handed to it may be used at once). */
  parked = false;

  constructor(
    /** Waits shorter than this get a timer of their own; the loop's tick ends longer ones soon enough. */
    private readonly tickMs: number,
  ) {}

  /** Until `wake`, or `ms`. */
  idle(ms: number): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = ms < this.tickMs ? setTimeout(() => this.wake(), ms) : undefined;
      this.waiter = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Waits as `idle` does, marked parked. */
  async park(ms: number): Promise<void> {
    this.parked = true;
    await this.idle(ms);
    this.parked = false;
  }

  wake(): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter) waiter();
    else this.woken = true;
  }
}
