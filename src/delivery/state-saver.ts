/**
 * Saves a `resource` pass's delivery state as deliveries settle, as `directory` ordering saves its cursor: after
 * SAVE_EVERY settled deliveries or SAVE_MS, one save in flight, the next carrying everything settled meanwhile. A
 * crash re-sends only what was not acknowledged or not yet saved; a save per delivery would cost a store round trip
 * each.
 */
import { SAVE_EVERY, SAVE_MS } from './pass-context.js';

export class StateSaver {
  private saving: Promise<void> | undefined;
  private dirty = false;
  /** Changes since the last save began, and the loop's wait to cut short (enough of them, the end). */
  private unsaved = 0;
  private cutShort: (() => void) | undefined;
  /** The pass is ending: what is left is saved at once. */
  private ending = false;
  private savedAt = 0;
  /** A save found the lease gone: nothing more is saved. */
  private lost = false;

  constructor(
    /** Saves the state as it is now; false when the lease is gone. */
    private readonly save: () => Promise<boolean>,
    /** A save failed (the store): the pass reports it. */
    private readonly fail: (err: unknown) => void,
  ) {}

  /** Something to save changed. */
  changed(): void {
    this.dirty = true;
    if (++this.unsaved >= SAVE_EVERY) this.cutShort?.();
    this.saving ??= this.loop().finally(() => (this.saving = undefined));
  }

  /** Saves what is left at once, and waits for it. */
  async flush(): Promise<void> {
    this.ending = true;
    this.changed();
    this.cutShort?.();
    await this.saving;
  }

  private async loop(): Promise<void> {
    try {
      while (this.dirty && !this.lost) {
        const gap = this.savedAt + SAVE_MS - Date.now();
        if (gap > 0 && this.unsaved < SAVE_EVERY && !this.ending) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, gap);
            this.cutShort = () => {
              clearTimeout(timer);
              resolve();
            };
          });
          this.cutShort = undefined;
        }
        this.savedAt = Date.now();
        this.dirty = false;
        this.unsaved = 0;
        if (!(await this.save())) this.lost = true;
      }
    } catch (err) {
      this.fail(err);
    }
  }
}
