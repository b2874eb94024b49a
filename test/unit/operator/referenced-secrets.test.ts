import { expect } from 'chai';
import type { ObjectCache } from '../../../src/operator/controller/namespaced-informers.js';
import type { InformerHandler } from '../../../src/operator/controller/informer.js';
import { KubeApiError } from '../../../src/operator/errors.js';
import type { KubeClient, KubeObject, Secret } from '../../../src/operator/kube.js';
import { ReferencedSecrets } from '../../../src/operator/referenced-secrets.js';

/** The metadata watch, as far as ReferencedSecrets uses it: current versions and change events. */
function metadataCache() {
  const objects = new Map<string, KubeObject>();
  const handlers: Array<InformerHandler<KubeObject>> = [];
  return {
    cache: {
      on: (h: InformerHandler<KubeObject>) => handlers.push(h),
      get: (key: string) => objects.get(key),
    } as unknown as ObjectCache<KubeObject>,
    set(name: string, resourceVersion: string) {
      const obj = { metadata: { name, namespace: 'default', resourceVersion } };
      const type = objects.has(`default/${name}`) ? 'update' : 'add';
      objects.set(`default/${name}`, obj);
      for (const h of handlers) h(type, obj);
    },
    remove(name: string) {
      const obj = objects.get(`default/${name}`)!;
      objects.delete(`default/${name}`);
      for (const h of handlers) h('delete', obj);
    },
  };
}

describe('ReferencedSecrets', () => {
  let stored: Map<string, Secret>;
  let gets: number;
  const client = {
    async get(_r: unknown, namespace: string, name: string): Promise<Secret> {
      gets++;
      await new Promise((resolve) => setImmediate(resolve));
      const secret = stored.get(name);
      if (!secret) throw new KubeApiError(`GET ${namespace}/${name}: 404`, 404, 'NotFound', 'not found');
      return secret;
    },
  } as unknown as KubeClient;
  const secret = (name: string, rv: string, value: string): Secret => ({
    metadata: { name, namespace: 'default', resourceVersion: rv },
    data: { v: value },
  });

  beforeEach(() => {
    stored = new Map();
    gets = 0;
  });

  it('reads a Secret once per resourceVersion, however many reconciles ask, at once or later', async () => {
    const watch = metadataCache();
    const secrets = new ReferencedSecrets(client, watch.cache);
    stored.set('hook', secret('hook', '5', 'a'));
    watch.set('hook', '5');
    const reads = await Promise.all(Array.from({ length: 50 }, () => secrets.get('default', 'hook')));
    expect(reads.every((s) => s?.data?.['v'] === 'a')).to.equal(true);
    for (let i = 0; i < 50; i++) await secrets.get('default', 'hook');
    expect(gets).to.equal(1);
  });

  it('reads again once the watch reports a new version, or after a deletion', async () => {
    const watch = metadataCache();
    const secrets = new ReferencedSecrets(client, watch.cache);
    stored.set('hook', secret('hook', '5', 'a'));
    watch.set('hook', '5');
    await secrets.get('default', 'hook');
    stored.set('hook', secret('hook', '6', 'b'));
    watch.set('hook', '6');
    expect((await secrets.get('default', 'hook'))?.data?.['v']).to.equal('b');
    expect(gets).to.equal(2);
    stored.delete('hook');
    watch.remove('hook');
    expect(await secrets.get('default', 'hook')).to.equal(undefined);
    expect(await secrets.get('default', 'hook')).to.equal(undefined); // a missing Secret is not remembered
    expect(gets).to.equal(4);
  });

  it('does not trust a read the watch has not confirmed (a Secret it does not see is read every time)', async () => {
    const watch = metadataCache();
    const secrets = new ReferencedSecrets(client, watch.cache);
    stored.set('own', secret('own', '1', 'x'));
    await secrets.get('default', 'own');
    await secrets.get('default', 'own');
    expect(gets).to.equal(2);
  });
});
