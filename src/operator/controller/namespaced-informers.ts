/**
 * One cache over several namespaces: an Informer per listed namespace (each lists and watches only its own
 * namespace, so namespaced Roles suffice), presented as one. Keys are `namespace/name`, so a lookup goes to the
 * informer of the key's namespace; events, lists and indexes are the union.
 */
import type { KubeObject } from '../kube.js';
import { Informer, type InformerHandler, type InformerOptions } from './informer.js';

/** What the controller and the reconciler use of a cache: an Informer, or several behind one face. */
export type ObjectCache<T extends KubeObject> = Pick<
  Informer<T>,
  'on' | 'get' | 'list' | 'size' | 'keysByIndex' | 'start' | 'stop' | 'resync' | 'recordWrite' | 'synced'
>;

export class NamespacedInformers<T extends KubeObject> implements ObjectCache<T> {
  private readonly byNamespace: Map<string, Informer<T>>;
  readonly synced: Promise<void>;

  constructor(namespaces: string[], options: Omit<InformerOptions<T>, 'namespace'>) {
    this.byNamespace = new Map(namespaces.map((namespace) => [namespace, new Informer<T>({ ...options, namespace })]));
    this.synced = Promise.all([...this.byNamespace.values()].map((i) => i.synced)).then(() => undefined);
  }

  on(handler: InformerHandler<T>): void {
    for (const i of this.byNamespace.values()) i.on(handler);
  }

  get(key: string): T | undefined {
    return this.byNamespace.get(key.slice(0, key.indexOf('/')))?.get(key);
  }

  *list(): IterableIterator<T> {
    for (const i of this.byNamespace.values()) yield* i.list();
  }

  get size(): number {
    let n = 0;
    for (const i of this.byNamespace.values()) n += i.size;
    return n;
  }

  keysByIndex(index: string, value: string): string[] {
    return [...this.byNamespace.values()].flatMap((i) => i.keysByIndex(index, value));
  }

  start(): void {
    for (const i of this.byNamespace.values()) i.start();
  }

  async stop(): Promise<void> {
    await Promise.all([...this.byNamespace.values()].map((i) => i.stop()));
  }

  resync(): void {
    for (const i of this.byNamespace.values()) i.resync();
  }

  recordWrite(obj: T, basedOn: string | undefined): void {
    this.byNamespace.get(obj.metadata.namespace ?? '')?.recordWrite(obj, basedOn);
  }
}

/** All namespaces (one cluster-wide informer) when `namespaces` is undefined, else one informer per namespace. */
export function cacheFor<T extends KubeObject>(
  namespaces: string[] | undefined,
  options: Omit<InformerOptions<T>, 'namespace'>,
): ObjectCache<T> {
  return namespaces ? new NamespacedInformers<T>(namespaces, options) : new Informer<T>(options);
}
