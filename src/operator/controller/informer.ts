/**
 * A list+watch cache of one resource, client-go's reflector and store (see docs/operator.md): the watch asks
 * for bookmarks, a watchdog restarts a watch that went silent (a dead peer can leave it open), a 410 Gone relists,
 * any other failure re-watches with backoff instead of stopping, and a periodic resync re-delivers every cached
 * object so level-based reconcilers get a regular second look.
 *
 * Own writes are written through (`recordWrite`): the object a write returned replaces the cached one at once,
 * and the watch's echo of that write is recognised and dropped. Without this, the echo of an earlier write can
 * briefly roll the cache back and a reconcile would redo a write it already made.
 *
 * What is cached can be narrowed: a label selector (only those objects are listed and watched), metadata only
 * (the API server sends PartialObjectMetadata, so e.g. a Secret's data never reaches this process), and a
 * transform applied to every object before it is cached.
 */
import type { Logger } from '../../logger.js';
import { KubeApiError, WatchExpiredError } from '../errors.js';
import { objectKey, resourcePath, type KubeClient, type KubeObject, type Resource } from '../kube.js';

export type InformerEventType = 'add' | 'update' | 'delete';
export type InformerHandler<T> = (type: InformerEventType, obj: T) => void;

export interface InformerOptions<T extends KubeObject> {
  client: KubeClient;
  resource: Resource;
  /** Watch one namespace; undefined = all. */
  namespace?: string;
  logger: Logger;
  /** Re-deliver every cached object as an update this often; 0 = never. */
  resyncIntervalMs: number;
  /** Restart a watch that delivered nothing, not even a bookmark, for this long. Default 150 s. */
  watchdogMs?: number;
  /** Items per list page. Default 500. */
  pageSize?: number;
  /** Named secondary indexes: index name → the values an object is found under. */
  indexers?: Record<string, (obj: T) => string[]>;
  /** Only objects matching this label selector (e.g. `app.kubernetes.io/managed-by=dsync-operator`). */
  labelSelector?: string;
  /** Ask for metadata only (PartialObjectMetadata): no spec, no data. */
  metadataOnly?: boolean;
  /** Applied to every object before it is cached. Default: drop managedFields. */
  transform?: (obj: T) => T;
}

const METADATA_LIST = 'application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1';
const METADATA_ITEM = 'application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1';

const RETRY_MIN_MS = 250;
const RETRY_MAX_MS = 15_000;

/** Watches end on their own after 5-10 minutes (client-go's spread), so connections are recycled. */
const watchTimeoutSeconds = (): number => Math.floor(300 + Math.random() * 300);

/** managedFields are often the biggest part of an object and no reconciler reads them. */
function shrink<T extends KubeObject>(obj: T): T {
  if (!obj.metadata.managedFields) return obj;
  const { managedFields: _unused, ...metadata } = obj.metadata;
  return { ...obj, metadata };
}

export class Informer<T extends KubeObject> {
  private readonly opts: Required<
    Omit<InformerOptions<T>, 'namespace' | 'indexers' | 'labelSelector' | 'metadataOnly'>
  > &
    InformerOptions<T>;
  private readonly path: string;
  private readonly cache = new Map<string, T>();
  /** Resource versions of own writes whose watch echo has not arrived yet, per key, oldest first. */
  private readonly pending = new Map<string, string[]>();
  private readonly indexes = new Map<string, Map<string, Set<string>>>();
  private readonly handlers: Array<InformerHandler<T>> = [];
  private resourceVersion: string | undefined;
  private stopped = false;
  private cancelWatch: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private resyncTimer: NodeJS.Timeout | undefined;
  private markSynced!: () => void;
  /** Resolves after the first complete list. */
  readonly synced = new Promise<void>((resolve) => (this.markSynced = resolve));
  private isSynced = false;

  constructor(options: InformerOptions<T>) {
    this.opts = { watchdogMs: 150_000, pageSize: 500, transform: shrink, ...options };
    this.path = resourcePath(options.resource, options.namespace);
    for (const name of Object.keys(options.indexers ?? {})) this.indexes.set(name, new Map());
  }

  on(handler: InformerHandler<T>): void {
    this.handlers.push(handler);
  }

  get(key: string): T | undefined {
    return this.cache.get(key);
  }

  list(): IterableIterator<T> {
    return this.cache.values();
  }

  get size(): number {
    return this.cache.size;
  }

  hasSynced(): boolean {
    return this.isSynced;
  }

  /** Keys of the cached objects filed under `value` in the named index. */
  keysByIndex(index: string, value: string): string[] {
    return [...(this.indexes.get(index)?.get(value) ?? [])];
  }

  start(): void {
    if (this.loop) return;
    this.loop = this.run();
    if (this.opts.resyncIntervalMs > 0) {
      this.resyncTimer = setInterval(() => this.resync(), this.opts.resyncIntervalMs);
      this.resyncTimer.unref();
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.resyncTimer) clearInterval(this.resyncTimer);
    this.cancelWatch?.();
    await this.loop;
  }

  /** Re-delivers every cached object as an update (what the periodic resync does). */
  resync(): void {
    if (!this.isSynced) return;
    for (const obj of this.cache.values()) this.emit('update', obj);
  }

  /**
   * Writes the object a successful write returned into the cache, if the cache still holds the version the
   * write was based on (undefined for a create). The watch's echo of it is then dropped.
   */
  recordWrite(obj: T, basedOn: string | undefined): void {
    const key = objectKey(obj);
    const current = this.cache.get(key)?.metadata.resourceVersion;
    const written = obj.metadata.resourceVersion;
    if (current !== basedOn || !written || written === current) return;
    this.set(key, this.opts.transform(obj));
    const own = this.pending.get(key);
    if (own) own.push(written);
    else this.pending.set(key, [written]);
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (!this.stopped) {
      try {
        if (this.resourceVersion === undefined) await this.relist();
        const delivered = await this.watch();
        failures = delivered ? 0 : failures + 1;
        if (!delivered) await this.sleep(this.backoff(failures)); // a watch that closes at once must not spin
      } catch (err) {
        if (this.stopped) break;
        if (err instanceof WatchExpiredError) {
          this.opts.logger.info({ resource: this.opts.resource.plural }, 'watch expired (410 Gone); relisting');
          this.resourceVersion = undefined;
          continue;
        }
        failures++;
        const delayMs = this.backoff(failures);
        this.opts.logger.warn({ err, resource: this.opts.resource.plural, delayMs }, 'list/watch failed; retrying');
        await this.sleep(delayMs);
      }
    }
  }

  private backoff(failures: number): number {
    const base = Math.min(RETRY_MIN_MS * 2 ** Math.max(0, failures - 1), RETRY_MAX_MS);
    return base / 2 + Math.random() * (base / 2);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.cancelWatch = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Lists page by page, then replaces the cache, emitting the differences. */
  private async relist(): Promise<void> {
    const items: T[] = [];
    let cont: string | undefined;
    let resourceVersion: string | undefined;
    do {
      const page = await this.opts.client.list<T>(
        this.opts.resource,
        this.opts.namespace,
        { limit: this.opts.pageSize, continue: cont, labelSelector: this.opts.labelSelector },
        this.opts.metadataOnly ? METADATA_LIST : undefined,
      );
      for (const item of page.items ?? []) items.push(this.opts.transform(item)); // null in an empty metadata list
      cont = page.metadata.continue || undefined;
      resourceVersion = page.metadata.resourceVersion;
    } while (cont && !this.stopped);
    if (this.stopped) return;
    const next = new Map(items.map((obj) => [objectKey(obj), obj]));
    this.pending.clear();
    for (const [key, old] of this.cache) {
      if (next.has(key)) continue;
      this.remove(key);
      this.emit('delete', old);
    }
    for (const [key, obj] of next) {
      const old = this.cache.get(key);
      if (old?.metadata.resourceVersion === obj.metadata.resourceVersion) continue;
      this.set(key, obj);
      this.emit(old ? 'update' : 'add', obj);
    }
    this.resourceVersion = resourceVersion;
    if (!this.isSynced) {
      this.isSynced = true;
      this.markSynced();
    }
  }

  /** One watch from the held resourceVersion; resolves with whether anything arrived, rejects on failure. */
  private watch(): Promise<boolean> {
    return new Promise((resolve, reject) => {
      let delivered = false;
      let finished = false;
      let lastActivity = Date.now();
      let cancel: (() => void) | undefined;
      const finish = (err?: unknown): void => {
        if (finished) return;
        finished = true;
        clearInterval(watchdog);
        cancel?.();
        if (err) reject(err);
        else resolve(delivered);
      };
      this.cancelWatch = () => finish();
      const watchdog = setInterval(
        () => {
          if (Date.now() - lastActivity < this.opts.watchdogMs) return;
          this.opts.logger.warn({ resource: this.opts.resource.plural }, 'watch silent; restarting it');
          finish();
        },
        Math.min(this.opts.watchdogMs / 4, 5_000),
      );
      watchdog.unref();
      const query = {
        resourceVersion: this.resourceVersion,
        allowWatchBookmarks: true,
        timeoutSeconds: watchTimeoutSeconds(),
        labelSelector: this.opts.labelSelector,
      };
      const onEvent = (type: string, obj: unknown): void => {
        if (finished) return;
        lastActivity = Date.now();
        delivered = true;
        if (type === 'ERROR') {
          const status = obj as { code?: number; message?: string };
          const message = `watch ${this.path}: ${status.code ?? '?'} ${status.message ?? ''}`;
          finish(status.code === 410 ? new WatchExpiredError(message) : new Error(message));
          return;
        }
        const item = obj as T;
        this.resourceVersion = item.metadata?.resourceVersion ?? this.resourceVersion;
        if (type !== 'BOOKMARK') this.apply(type, this.opts.transform(item));
      };
      const onDone = (err?: unknown): void => {
        const gone = err instanceof KubeApiError && err.status === 410;
        finish(gone ? new WatchExpiredError(`watch ${this.path}: 410 Gone`) : err);
      };
      const accept = this.opts.metadataOnly ? METADATA_ITEM : undefined;
      cancel = this.opts.client.watch(this.path, query, accept, onEvent, onDone);
    });
  }

  private apply(type: string, obj: T): void {
    const key = objectKey(obj);
    if (type === 'DELETED') {
      const old = this.cache.get(key);
      this.pending.delete(key);
      if (!old) return;
      this.remove(key);
      this.emit('delete', obj);
      return;
    }
    const rv = obj.metadata.resourceVersion;
    const own = this.pending.get(key);
    if (own) {
      const at = rv === undefined ? -1 : own.indexOf(rv);
      if (at >= 0) {
        // The echo of an own write: the cache already holds it or a later own write.
        own.splice(0, at + 1);
        if (own.length === 0) this.pending.delete(key);
        return;
      }
      this.pending.delete(key); // someone else's change, newer than every own write
    }
    const old = this.cache.get(key);
    if (old && old.metadata.resourceVersion === rv) return;
    this.set(key, obj);
    this.emit(old ? 'update' : 'add', obj);
  }

  private set(key: string, obj: T): void {
    if (this.indexes.size > 0) this.unindex(key);
    this.cache.set(key, obj);
    for (const [name, fn] of Object.entries(this.opts.indexers ?? {})) {
      const index = this.indexes.get(name)!;
      for (const value of fn(obj)) {
        const keys = index.get(value);
        if (keys) keys.add(key);
        else index.set(value, new Set([key]));
      }
    }
  }

  private remove(key: string): void {
    if (this.indexes.size > 0) this.unindex(key);
    this.cache.delete(key);
    this.pending.delete(key);
  }

  private unindex(key: string): void {
    const old = this.cache.get(key);
    if (!old) return;
    for (const [name, fn] of Object.entries(this.opts.indexers ?? {})) {
      const index = this.indexes.get(name)!;
      for (const value of fn(old)) {
        const keys = index.get(value);
        keys?.delete(key);
        if (keys?.size === 0) index.delete(value);
      }
    }
  }

  private emit(type: InformerEventType, obj: T): void {
    for (const handler of this.handlers) handler(type, obj);
  }
}
