/** Ports for the programs tests start: one free to listen on, one held the way another program would hold it. */
import { createServer, type Server } from 'node:net';

/** Ports freePort has handed out in this process: none twice. */
const handedOut = new Set<number>();

const [FIRST, LAST] = [11_000, 19_999];

/**
 * A port that was free a moment ago, for a program started next to listen on. Picked at random in 11000-19999:
 * below Linux's ephemeral range (32768-60999), where any outgoing connection of the machine (the suites beside
 * this one make thousands) may take a port the OS picked before the program binds it (CI saw a receiver fail with
 * EADDRINUSE), below the 20000-32767 test/redis-topology.sh starts its servers in, and above the Kubernetes
 * components' own (10248-10259).
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = FIRST + Math.floor(Math.random() * (LAST - FIRST + 1));
    if (handedOut.has(port) || !(await portIsFree(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port found in ${FIRST}-${LAST}`);
}

/** Holds a port the way another program would; rejects when something holds it already (EADDRINUSE). */
export async function occupy(port: number): Promise<Server> {
  const server = createServer();
  // Without the error listener a port in use is an uncaught 'error' event, not a rejection: it failed a CI run.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

/** True if nothing listens on the port any more (binding it succeeds). */
export async function portIsFree(port: number): Promise<boolean> {
  try {
    const server = await occupy(port);
    await new Promise((resolve) => server.close(resolve));
    return true;
  } catch {
    return false;
  }
}
