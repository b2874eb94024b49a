/**
 * Step 5: the reconcile's one status write (computed by connection-status.ts) and the Events of condition
 * transitions. Kept apart from the steps because it runs once, after whichever of them halted.
 */
import { READY, WEBHOOK_DISABLED, findCondition } from './conditions.js';
import { computeStatus } from './connection-status.js';
import type { ObjectCache } from './controller/namespaced-informers.js';
import { DIRECTORY_CONNECTIONS, type DirectoryConnection, type DirectoryConnectionStatus } from './crd-schema.js';
import type { EventRecorder } from './kube-events.js';
import type { KubeClient } from './kube.js';
import type { Halt, ReconcileState } from './reconcile-state.js';

export interface StatusWriteDeps {
  client: KubeClient;
  connections: ObjectCache<DirectoryConnection>;
  events: EventRecorder;
}

export class StatusWriter {
  constructor(private readonly o: StatusWriteDeps) {}

  /** The one status write of a reconcile; skipped when nothing changed. Events on condition transitions. */
  async write(state: ReconcileState, halt: Halt | undefined): Promise<void> {
    const { cr } = state;
    const previous = cr.status ?? {};
    const { status, ready, webhook, pullSync, changed } = computeStatus(state, halt, new Date());
    if (!changed) return;
    const written = await this.patchStatus(cr, status);
    const before = findCondition(previous.conditions, READY);
    if (before?.status !== ready.status || before.reason !== ready.reason) {
      if (halt) state.log.warn({ reason: halt.reason, err: halt.cause }, halt.message);
      // A resource that is Ready at its first outcome gets no Event: its status says so, and at a mass apply an
      // Event each would be one more API write per resource. Failures and later transitions get one.
      if (halt || before) await this.o.events.record(written, halt ? 'Warning' : 'Normal', ready.reason, ready.message);
    }
    const webhookBefore = findCondition(previous.conditions, WEBHOOK_DISABLED);
    if (webhook && webhookBefore?.status !== webhook.status) {
      if (webhook.status === 'True') await this.o.events.record(written, 'Warning', WEBHOOK_DISABLED, webhook.message);
      else await this.o.events.record(written, 'Normal', 'WebhookReenabled', webhook.message);
    }
    const pullBefore = pullSync && findCondition(previous.conditions, pullSync.type);
    if (pullSync?.status === 'False' && (pullBefore?.status !== 'False' || pullBefore.reason !== pullSync.reason)) {
      await this.o.events.record(written, 'Warning', pullSync.reason, pullSync.message);
    }
  }

  /**
   * Merge patch of the status subresource (fields gone from `status` are removed), conditional on the resourceVersion.
   */
  private async patchStatus(cr: DirectoryConnection, status: DirectoryConnectionStatus): Promise<DirectoryConnection> {
    const previous = cr.status ?? {};
    const removed = Object.fromEntries(
      Object.keys(previous)
        .filter((k) => !(k in status))
        .map((k) => [k, null]),
    );
    const patch = { metadata: { resourceVersion: cr.metadata.resourceVersion }, status: { ...removed, ...status } };
    const { namespace, name } = cr.metadata;
    const written = await this.o.client.mergePatch<DirectoryConnection>(
      DIRECTORY_CONNECTIONS,
      namespace!,
      name,
      patch,
      'status',
    );
    this.o.connections.recordWrite(written, cr.metadata.resourceVersion);
    return written;
  }
}
