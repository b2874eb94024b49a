/**
 * The Secrets DirectoryConnections reference (webhook, Google service account), read once per resourceVersion.
 *
 * Their metadata is watched (main.ts), so the current resourceVersion of each is known without a request: a
 * reconcile is served the value read earlier while the watch still reports the version it was read at, and
 * GETs it again once the version moved on. Ten thousand resources sharing one webhook Secret cost one GET, and
 * a resync or a leader takeover with nothing changed costs one GET per referenced Secret, not one per resource.
 * Only referenced Secrets are ever read (their values go to the store anyway); an entry is dropped as soon as
 * the watch reports a change or deletion of its Secret, so nothing stale is served. One no longer referenced
 * stays until then: at most one entry per Secret ever referenced.
 */
import type { ObjectCache } from './controller/namespaced-informers.js';
import { isNotFound } from './errors.js';
import { SECRETS, type KubeClient, type KubeObject, type Secret } from './kube.js';

interface Held {
  resourceVersion: string | undefined;
  read: Promise<Secret | undefined>;
}

export class ReferencedSecrets {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly client: KubeClient,
    /** Metadata of the Secrets that are not the operator's own (a metadata-only watch). */
    private readonly metadata: ObjectCache<KubeObject>,
  ) {
    metadata.on((type, secret) => {
      const key = `${secret.metadata.namespace}/${secret.metadata.name}`;
      const entry = this.held.get(key);
      if (entry && (type === 'delete' || entry.resourceVersion !== secret.metadata.resourceVersion))
        this.held.delete(key);
    });
  }

  /** The Secret, or undefined when it does not exist; from the last read while its resourceVersion is current. */
  get(namespace: string, name: string): Promise<Secret | undefined> {
    const key = `${namespace}/${name}`;
    const current = this.metadata.get(key)?.metadata.resourceVersion;
    const entry = this.held.get(key);
    // Concurrent reconciles share one read in flight; a finished read counts while the watch agrees with it.
    if (entry && (entry.resourceVersion === undefined || (current !== undefined && entry.resourceVersion === current)))
      return entry.read;
    const read = this.read(namespace, name);
    const pending: Held = { resourceVersion: undefined, read };
    this.held.set(key, pending);
    read.then(
      (secret) => {
        if (this.held.get(key) !== pending) return;
        if (secret) pending.resourceVersion = secret.metadata.resourceVersion;
        else this.held.delete(key);
      },
      () => this.held.get(key) === pending && this.held.delete(key),
    );
    return read;
  }

  private async read(namespace: string, name: string): Promise<Secret | undefined> {
    try {
      return await this.client.get<Secret>(SECRETS, namespace, name);
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }
}
