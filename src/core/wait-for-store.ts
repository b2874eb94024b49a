/**
 * A process's first contact with its store. One ping is bounded by the 500 ms command timeout (store/redis/client.ts),
 * which is right for a request but not for a start: a Redis still starting beside the service, or a loaded
 * machine where connecting and the ready check take longer, would make `dsync serve` exit for nothing. So the
 * first ping is tried again while the store answers "unavailable", up to a few seconds, with one log line.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { StoreUnavailableError } from './errors.js';

/** Longest wait for the store at start; a store still away then is a failed start (exit non-zero). */
export const STORE_START_WAIT_MS = 5_000;
const RETRY_EVERY_MS = 250;

/** Resolves once `store` answers a ping; rethrows the last "unavailable" after `withinMs`, any other error at once. */
export async function waitForStore(
  store: { ping(): Promise<void> },
  logger: Logger,
  withinMs = STORE_START_WAIT_MS,
): Promise<void> {
  const deadline = Date.now() + withinMs;
  for (let attempt = 1; ; attempt++) {
    try {
      await store.ping();
      if (attempt > 1) logger.info({ attempts: attempt }, 'store reached');
      return;
    } catch (err) {
      // A refused password or a bad TLS setup will not get better by waiting.
      if (!(err instanceof StoreUnavailableError) || Date.now() + RETRY_EVERY_MS > deadline) throw err;
      if (attempt === 1) logger.warn({ err: err.message, withinMs }, 'store not reachable yet; waiting for it');
      await sleep(RETRY_EVERY_MS);
    }
  }
}
