/**
 * Binding a listener named by its environment variable, so a clash reads as one actionable line
 * (`PORT=5225 is already in use ...`) instead of a raw EADDRINUSE stack trace.
 */
import type { Server } from 'node:net';
import { DsyncError } from './core/errors.js';

/** A port the process could not bind; the CLI prints its message alone and exits non-zero. */
export class PortError extends DsyncError {
  override name = 'PortError';
  constructor(message: string, cause: unknown) {
    super(message, 'DSYNC_PORT_UNAVAILABLE', { cause });
  }
}

function explain(err: NodeJS.ErrnoException, variable: string, port: number): Error {
  if (err.code === 'EADDRINUSE') {
    return new PortError(
      `${variable}=${port} is already in use (another process listens on it); set ${variable} to a free port`,
      err,
    );
  }
  if (err.code === 'EACCES') {
    return new PortError(
      `${variable}=${port} needs privileges this process lacks; set ${variable} to a port above 1023`,
      err,
    );
  }
  return err;
}

/** `server.listen(port, host)` as a promise that rejects with a PortError naming `variable`. */
export function listen(server: Server, port: number, host: string, variable: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => reject(explain(err, variable, port));
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
}
