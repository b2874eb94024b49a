/** Stop signals for the long-running commands (`serve`, `operator`). */
import type { Logger } from './logger.js';

/**
 * Calls `stop` once, on the first SIGTERM or SIGINT. Repeats are logged and ignored: Ctrl+C under `npm start`
 * delivers SIGINT twice (from the terminal, and forwarded by npm), and the second must not cut a graceful
 * shutdown short; `stop` bounds its own duration.
 */
export function onStopSignal(logger: Logger, stop: (signal: NodeJS.Signals) => void): void {
  let stopping = false;
  const handle = (signal: NodeJS.Signals) => {
    if (stopping) return logger.info({ signal }, 'already shutting down');
    stopping = true;
    stop(signal);
  };
  process.on('SIGTERM', handle);
  process.on('SIGINT', handle);
}
