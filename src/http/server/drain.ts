/**
 * Stopping an HTTP server without failing a request of a client that keeps its connection alive. A stopping pod
 * behind a Kubernetes Service still gets requests after it left the endpoints: on the connections clients keep
 * alive (their conntrack entries outlive the endpoint), and on new ones where a proxy has not caught up yet.
 * Refusing either, or closing a connection at the moment its client sends the next request, fails that request.
 * So while draining:
 * - every response says `Connection: close`, and the connection closes after it: the client opens its next one,
 *   which the Service routes to another pod;
 * - a connection is closed only once it has been idle (no request open, no byte received) for `idleMs`: one that
 *   has just turned idle is the one a busy client is about to reuse;
 * - the port stays open until the last connection is gone, answering a late-routed connection the same way.
 * Node's own `server.close()` closes every idle connection at once, so it is called only at the end.
 */
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

export interface Drain {
  /** Whether drain() was called: the process is stopping (its /readyz says so). */
  readonly draining: boolean;
  /** Starts draining; resolves once every connection has closed and the port is closed. */
  drain(): Promise<void>;
}

interface Connection {
  /** Responses not finished yet (more than one when a client pipelines). */
  open: number;
  /** When the connection last turned idle, and how many bytes it had received by then. */
  idleSince: number;
  bytesRead: number;
}

/** Tracks `server`'s connections from now on; call before it listens. */
export function drainable(server: Server, idleMs = 1000): Drain {
  const connections = new Map<Socket, Connection>();
  const pending = new Set<ServerResponse>();
  let draining: Promise<void> | undefined;

  const closeWhenDone = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
  };
  server.on('connection', (socket: Socket) => {
    connections.set(socket, { open: 0, idleSince: Date.now(), bytesRead: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  // First of the request listeners, so the header is set before the application answers.
  server.prependListener('request', (req, res) => {
    if (draining) closeWhenDone(res);
    const connection = connections.get(req.socket);
    pending.add(res);
    if (connection) connection.open++;
    res.once('close', () => {
      pending.delete(res);
      if (!connection) return;
      connection.open--;
      connection.idleSince = Date.now();
      connection.bytesRead = req.socket.bytesRead;
    });
  });

  /** Closes the connections idle for idleMs; a byte received since it turned idle starts its idle time anew. */
  const sweep = (now: number) => {
    for (const [socket, c] of connections) {
      if (c.open > 0) continue;
      if (socket.bytesRead !== c.bytesRead) {
        c.idleSince = now;
        c.bytesRead = socket.bytesRead;
      } else if (now - c.idleSince >= idleMs) {
        socket.destroy();
      }
    }
  };

  return {
    get draining() {
      return draining !== undefined;
    },
    drain() {
      draining ??= new Promise<void>((resolve) => {
        for (const res of pending) closeWhenDone(res);
        const timer = setInterval(
          () => {
            sweep(Date.now());
            if (connections.size > 0) return;
            clearInterval(timer);
            server.close(() => resolve()); // no connection left for it to close
          },
          Math.min(100, idleMs / 4),
        );
      });
      return draining;
    },
  };
}
