/**
 * Kubernetes Events (core/v1) about a resource, for `kubectl describe`. Best effort: a failed Event never fails
 * a reconcile. Messages name objects only, never secret values.
 */
import type { Logger } from '../logger.js';
import { kubeTime } from './conditions.js';
import { EVENTS, type KubeClient, type KubeObject } from './kube.js';

export type EventType = 'Normal' | 'Warning';

export interface EventRecorderOptions {
  client: KubeClient;
  /** `source.component` / `reportingComponent`. */
  component: string;
  /** This replica (`reportingInstance`). */
  instance: string;
  logger: Logger;
}

export class EventRecorder {
  constructor(private readonly options: EventRecorderOptions) {}

  async record(obj: KubeObject, type: EventType, reason: string, message: string): Promise<void> {
    const { namespace, name, uid, resourceVersion } = obj.metadata;
    const now = new Date();
    const event = {
      apiVersion: 'v1',
      kind: 'Event',
      // Object names may be up to 253 characters; the server appends a unique suffix.
      metadata: { generateName: `${name.slice(0, 200)}.`, namespace, name: '' },
      involvedObject: { apiVersion: obj.apiVersion, kind: obj.kind, name, namespace, uid, resourceVersion },
      type,
      reason,
      message: message.slice(0, 1024),
      source: { component: this.options.component },
      reportingComponent: this.options.component,
      reportingInstance: this.options.instance.slice(0, 128),
      firstTimestamp: kubeTime(now),
      lastTimestamp: kubeTime(now),
      count: 1,
    };
    try {
      await this.options.client.create(EVENTS, event as KubeObject);
    } catch (err) {
      this.options.logger.warn({ err, reason, object: `${namespace}/${name}` }, 'could not record an Event');
    }
  }
}
