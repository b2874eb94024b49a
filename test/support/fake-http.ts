/** The plumbing every fake HR system shares: an HTTP server on loopback, its body read, faults injected. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Fault {
  route: string;
  status: number;
  retryAfter?: string;
  times: number;
}

export abstract class FakeServer<R extends string> {
  url = '';
  readonly faults: Fault[] = [];
  abstract readonly calls: Record<R, number>;
  private server?: Server;

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.receive(req, res).catch(() => res.writeHead(500).end()));
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => this.server?.close(() => r()) ?? r());
  }

  get totalCalls(): number {
    return Object.values<number>(this.calls).reduce((a, b) => a + b, 0);
  }

  resetCalls(): void {
    for (const k of Object.keys(this.calls) as R[]) this.calls[k] = 0;
  }

  /** The next `times` requests of `route` ('*': any) answer `status` (with `Retry-After` when given). */
  fail(route: R | '*', status: number, times = 1, retryAfter?: string): void {
    this.faults.push({ route, status, times, ...(retryAfter !== undefined && { retryAfter }) });
  }

  /** Counts the call and answers an injected fault if one is due (true: answered). */
  protected faulted(route: R, res: ServerResponse): boolean {
    this.calls[route]++;
    const fault = this.faults.find((f) => (f.route === route || f.route === '*') && f.times > 0);
    if (!fault) return false;
    fault.times--;
    res
      .writeHead(fault.status, {
        'Content-Type': 'application/json',
        ...(fault.retryAfter !== undefined && { 'Retry-After': fault.retryAfter }),
      })
      .end(JSON.stringify({ message: 'Too many requests' }));
    return true;
  }

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    await this.handle(req, res, new URL(req.url ?? '/', this.url), await bodyOf(req));
  }

  protected abstract handle(req: IncomingMessage, res: ServerResponse, url: URL, body: string): Promise<void> | void;
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/** A request's body as text (the fakes read form and JSON bodies themselves). */
export function bodyOf(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
    req.on('error', reject);
  });
}
