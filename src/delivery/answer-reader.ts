/**
 * Reads a receiver's answer to one webhook POST through undici's dispatch handler API. `request()` would wrap each
 * answer's body in a readable stream for the caller to drain and settle a promise per step; a webhook needs only
 * the status and Retry-After, and reads the body up to a cap to throw it away, which costs less without the stream
 * (docs/design/performance.md, "Delivery's cost per event").
 */
import type { Dispatcher } from 'undici';
import type { IncomingHttpHeaders } from 'node:http';

export interface Answer {
  status: number;
  retryAfter?: string;
}

export class AnswerReader implements Dispatcher.DispatchHandler {
  private answer: Answer | undefined;
  private bytes = 0;
  private settled = false;

  /** `settle` is called once: with the answer, or with the error that came before it. */
  constructor(
    private readonly limit: number,
    private readonly settle: (err: Error | null, answer?: Answer) => void,
  ) {}

  /**
   * Nothing to do; its presence is what tells undici this handler takes the controller API (not the deprecated one).
   */
  onRequestStart(): void {}

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    if (statusCode < 200) return; // informational (100 Continue, 103): the answer follows
    const retryAfter = headers['retry-after'];
    this.answer = { status: statusCode };
    if (typeof retryAfter === 'string') this.answer.retryAfter = retryAfter;
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    this.bytes += chunk.length;
    // Past the cap the rest is not read: the connection is dropped (the status already decided the delivery).
    if (this.bytes > this.limit) controller.abort(new Error(`the answer is longer than ${this.limit} bytes`));
  }

  onResponseEnd(): void {
    this.done(null);
  }

  /**
   * An error once the status is in (a reset or timeout while the body is read, the cap) ends the read, not the
   * delivery.
   */
  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    this.done(this.answer ? null : err);
  }

  private done(err: Error | null): void {
    if (this.settled) return;
    this.settled = true;
    if (err || !this.answer) this.settle(err ?? new Error('the receiver closed the connection without an answer'));
    else this.settle(null, this.answer);
  }
}
