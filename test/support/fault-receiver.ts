/**
 * A webhook receiver for fault tests: it records every delivery and whether its 2xx reached the sender, can be
 * closed (connection refused) and reopened on the same port, and can answer late or with other statuses.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { SECRET } from './dsync-process.js';
import { receiveSigned } from './harness.js';
import type { ArrivedPost } from './resource-order.js';

export interface Seen {
  /** `webhook-id` header. */
  id: string;
  body: any;
  /** The receiver answered 2xx and the sender was still there to read it. */
  acked: boolean;
  /** Tick (one counter for arrivals and answers) the delivery arrived at, and the tick its 2xx left at. */
  arrived: number;
  ackedAt?: number;
  /** Wall-clock ms it arrived at. */
  at: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  delayMs?: number;
  /** Hold the answer until this settles (or the sender gives up). */
  until?: Promise<unknown>;
}

/**
 * A webhook receiver on a fixed port that can be closed (connection refused) and reopened on the same port,
 * and can answer late or with other statuses. Verifies every signature with the `standardwebhooks` package,
 * like test/support/harness.ts; a request that fails verification is counted in `rejected`.
 */
export class FaultReceiver {
  port = 0;
  readonly seen: Seen[] = [];
  rejected = 0;
  inFlight = 0;
  /** The most deliveries in flight at once. */
  maxInFlight = 0;
  private tick = 0;
  answer: (d: Seen) => Answer = () => ({ status: 200 });
  private server: Server | undefined;
  private readonly wh = new Webhook(SECRET);

  get url(): string {
    return `http://127.0.0.1:${this.port}/hooks`;
  }

  async open(): Promise<this> {
    const server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', resolve);
    });
    this.port = (server.address() as AddressInfo).port;
    this.server = server;
    return this;
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    receiveSigned(
      this.wh,
      req,
      res,
      (body) => {
        const d: Seen = {
          id: String(req.headers['webhook-id']),
          body,
          acked: false,
          arrived: ++this.tick,
          at: Date.now(),
        };
        this.seen.push(d);
        const a = this.answer(d);
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        let done = false;
        const send = () => {
          if (done) return;
          done = true;
          this.inFlight--;
          // A sender that timed out (or died) has closed the socket: that attempt was not acknowledged.
          if (res.destroyed || req.socket.destroyed) return;
          d.acked = a.status >= 200 && a.status < 300;
          if (d.acked) d.ackedAt = ++this.tick;
          res.writeHead(a.status, a.headers).end();
        };
        res.on('close', () => {
          if (!done) {
            done = true;
            this.inFlight--;
          }
        });
        const after = a.until ?? Promise.resolve();
        void after.then(() => (a.delayMs ? setTimeout(send, a.delayMs) : send()));
      },
      () => this.rejected++,
    );
  }

  /** Every event in arrival order (batch arrays unrolled), with the delivery it came in. */
  events(): Array<{ event: any; d: Seen }> {
    return this.seen.flatMap((d) => (Array.isArray(d.body) ? d.body : [d.body]).map((event: any) => ({ event, d })));
  }

  /** The deliveries of one directory as the resource-order checker takes them (test/support/resource-order.ts). */
  posts(directoryId: string): ArrivedPost[] {
    return this.seen
      .map((d) => ({
        events: (Array.isArray(d.body) ? d.body : [d.body]).filter((e: any) => e.directory_id === directoryId),
        arrived: d.arrived,
        ...(d.acked && { acked: d.ackedAt! }),
      }))
      .filter((p) => p.events.length > 0);
  }

  ackedCount(): number {
    return new Set(
      this.events()
        .filter((x) => x.d.acked)
        .map((x) => x.event.id as string),
    ).size;
  }
}
