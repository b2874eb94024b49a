/** Where a directory's events go: its signed webhook, or the embedding application's callback. */
import type { Directory, DirectorySyncEvent } from '../core/model.js';
import type { LoggedEvent } from '../core/store-port.js';
import type { AttemptOutcome } from './retry-policy.js';
import type { WebhookSender } from './webhook-sender.js';

export interface Delivery {
  directory: Directory;
  events: LoggedEvent[];
  /** True = one POST with a JSON array (batch mode); false = one event per POST. */
  batch: boolean;
}

export interface SinkResult extends AttemptOutcome {
  /** Stable across retries of the same delivery (Standard Webhooks `webhook-id`). */
  id: string;
  error?: string;
  latencyMs: number;
  /** Nothing to deliver to (no webhook configured): counts as delivered. */
  skipped?: boolean;
}

export interface Sink {
  deliver(delivery: Delivery): Promise<SinkResult>;
}

/** Event ids are serialised first by buildEvent, so a prefix match avoids parsing the whole event. */
export function eventIdOf(json: string): string {
  const m = /^\{"id":"([^"]+)"/.exec(json);
  return m ? m[1]! : (JSON.parse(json) as { id: string }).id;
}

export function deliveryId(d: Delivery): string {
  const first = eventIdOf(d.events[0]!.json);
  return d.batch ? `batch_${first}_${d.events.length}` : first;
}

export class WebhookSink implements Sink {
  constructor(private readonly sender: WebhookSender) {}

  async deliver(d: Delivery): Promise<SinkResult> {
    const id = deliveryId(d);
    const { endpoint, secret } = d.directory.webhook;
    if (!endpoint) return { id, status: 204, latencyMs: 0, skipped: true };
    // The stored JSON is sent as is: the exact bytes signed are the bytes sent.
    const body = d.batch ? `[${d.events.map((e) => e.json).join(',')}]` : d.events[0]!.json;
    return { id, ...(await this.sender.post(endpoint, secret, id, body)) };
  }
}

export class CallbackSink implements Sink {
  constructor(private readonly callback: (event: DirectorySyncEvent) => unknown) {}

  async deliver(d: Delivery): Promise<SinkResult> {
    const id = deliveryId(d);
    const started = performance.now();
    try {
      for (const e of d.events) await this.callback(JSON.parse(e.json) as DirectorySyncEvent);
      return { id, status: 200, latencyMs: performance.now() - started };
    } catch (err) {
      return { id, error: (err as Error).message, latencyMs: performance.now() - started };
    }
  }
}
