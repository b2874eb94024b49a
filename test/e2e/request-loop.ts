// A client looping requests through a Service while something happens to its pods (a rolling update): a few
// loops, each sending its next GET 10 ms after the last one's answer (a busy identity provider, short of
// starving the 2-core node's probes), on connections kept alive as such a client keeps them (node:http's Agent,
// which opens a new connection after an answer saying Connection: close).
// A request fails when the service failed it: an answer other than 200, or none (the connection refused, reset,
// or closed before its answer, or no answer within 10 s). Bounded: it stops by itself after maxMs or maxRequests.
import { Agent, request } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface LoopReport {
  requests: number;
  failed: number;
  /** The first failures, each with its time from the start and what happened. */
  failures: string[];
  /** Connections the client opened: more than the loops when the server sent some away with Connection: close. */
  connections: number;
  seconds: number;
}

const ANSWER_TIMEOUT_MS = 10_000;
const PAUSE_MS = 10;

export function loopRequests(
  url: string,
  headers: Record<string, string>,
  options: { loops?: number; maxMs?: number; maxRequests?: number } = {},
): { stop(): Promise<LoopReport> } {
  const { loops = 4, maxMs = 10 * 60_000, maxRequests = 500_000 } = options;
  // One connection per loop at most: none waits idle in the pool for the server to close it under a request.
  const agent = new Agent({ keepAlive: true, maxSockets: loops, scheduling: 'lifo' });
  const t0 = Date.now();
  const sockets = new Set<Socket>();
  const report: LoopReport = { requests: 0, failed: 0, failures: [], connections: 0, seconds: 0 };
  let stopping = false;
  const fail = (what: string) => {
    report.failed++;
    if (report.failures.length < 20) report.failures.push(`${((Date.now() - t0) / 1000).toFixed(2)} s: ${what}`);
  };

  const once = () =>
    new Promise<void>((resolve) => {
      const req = request(url, { agent, headers, timeout: ANSWER_TIMEOUT_MS }, (res) => {
        res.resume();
        res.on('end', () => {
          if (res.statusCode !== 200) fail(`HTTP ${res.statusCode}`);
          resolve();
        });
        res.on('error', (err) => (fail(`answer cut: ${err.message}`), resolve()));
      });
      req.on('socket', (socket: Socket) => {
        if (!sockets.has(socket)) report.connections++;
        sockets.add(socket);
      });
      req.on('timeout', () => req.destroy(new Error(`no answer in ${ANSWER_TIMEOUT_MS} ms`)));
      req.on(
        'error',
        (err: NodeJS.ErrnoException) => (
          fail(`${err.code ?? err.message}${req.reusedSocket ? ' (on a kept-alive connection)' : ''}`), resolve()
        ),
      );
      req.end();
      report.requests++;
    });

  const loop = async () => {
    while (!stopping && Date.now() - t0 < maxMs && report.requests < maxRequests) {
      await once();
      await sleep(PAUSE_MS);
    }
  };
  const running = Promise.all(Array.from({ length: loops }, loop));
  return {
    async stop() {
      stopping = true;
      await running;
      agent.destroy();
      report.seconds = (Date.now() - t0) / 1000;
      return report;
    },
  };
}
