/**
 * Prometheus metrics on their own listener (METRICS_PORT), never routed by the Ingress. Label values are
 * bounded (route templates, outcomes): no tenant or directory labels.
 */
import { createServer, type Server } from 'node:http';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { listen } from './listen.js';

export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route template, method and status code',
    labelNames: ['route', 'method', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [this.registry],
  });
  readonly deliveryAttempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by mode and outcome',
    labelNames: ['mode', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly deliveryDuration = new Histogram({
    name: 'webhook_delivery_duration_seconds',
    help: 'Duration of one webhook POST',
    labelNames: ['outcome'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
    registers: [this.registry],
  });
  readonly eventsDelivered = new Counter({
    name: 'webhook_events_delivered_total',
    help: 'Events delivered (2xx) to webhooks or the embedded callback',
    registers: [this.registry],
  });
  readonly eventsDeadLettered = new Counter({
    name: 'webhook_events_dead_lettered_total',
    help: 'Events given up on after the last retry (or a 410)',
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Outcome label of an attempt: 2xx, 4xx, 410, 429, 5xx, or error (network, timeout, blocked). */
  static outcome(status: number | undefined): string {
    if (status === undefined) return 'error';
    if (status === 410 || status === 429) return String(status);
    return `${Math.floor(status / 100)}xx`;
  }

  /** Serves `/metrics` on METRICS_PORT; rejects with a PortError naming the variable when the port is taken. */
  listen(port: number, host = '0.0.0.0'): Promise<Server> {
    const server = createServer(async (req, res) => {
      if (req.url !== '/metrics') {
        res.writeHead(404).end();
        return;
      }
      res.setHeader('Content-Type', this.registry.contentType);
      res.end(await this.registry.metrics());
    });
    return listen(server, port, host, 'METRICS_PORT').then(() => server);
  }
}
