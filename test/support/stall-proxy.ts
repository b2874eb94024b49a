/**
 * A TCP proxy in front of a real service (Redis) that can be stalled: connections stay open but no byte moves
 * either way, as with a frozen or overloaded server behind a live socket. Resuming lets the buffered bytes
 * flow again. Listens on an ephemeral port.
 */
import { createConnection, createServer, type Socket } from 'node:net';

export interface StallProxy {
  /** `host:port` of the proxy. */
  readonly address: string;
  stall(): void;
  resume(): void;
  close(): Promise<void>;
}

export async function startStallProxy(target: { host: string; port: number }): Promise<StallProxy> {
  const sockets = new Set<Socket>();
  let stalled = false;
  const server = createServer((client) => {
    const upstream = createConnection(target);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
      if (stalled) s.pause();
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    address: `127.0.0.1:${port}`,
    stall: () => {
      stalled = true;
      for (const s of sockets) s.pause();
    },
    resume: () => {
      stalled = false;
      for (const s of sockets) s.resume();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
