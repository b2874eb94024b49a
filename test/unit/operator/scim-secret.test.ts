import { expect } from 'chai';
import type { DirectoryConnection } from '../../../src/operator/crd-schema.js';
import type { Secret } from '../../../src/operator/kube.js';
import {
  DIRECTORY_ID_ANNOTATION,
  FINALIZER,
  REENABLE_WEBHOOK_ANNOTATION,
  REENABLED_WEBHOOK_ANNOTATION,
  ROTATE_ANNOTATION,
  ROTATED_ANNOTATION,
} from '../../../src/operator/metadata-keys.js';
import {
  guardedDirectory,
  pendingWebhookReenable,
  planScimSecret,
  withWebhookReenabled,
  type ScimSecretPlan,
} from '../../../src/operator/scim-secret.js';

const owner = (annotations?: Record<string, string>): DirectoryConnection => ({
  metadata: { name: 'acme', namespace: 'ns', uid: 'uid-1', ...(annotations && { annotations }) },
});
const b64 = (s: string): string => Buffer.from(s).toString('base64');
const ENDPOINT = 'https://dsync.example.com/api/scim/v2.0/uid-1';
let counter = 0;
const newToken = (): string => `token-${++counter}`;

function written(plan: ScimSecretPlan): Secret {
  if (plan.action !== 'create' && plan.action !== 'update') throw new Error(`expected a write, got ${plan.action}`);
  return plan.secret;
}

describe('planScimSecret', () => {
  it('creates an owned Opaque Secret with endpoint and token', () => {
    const plan = planScimSecret({ owner: owner(), existing: undefined, endpoint: ENDPOINT, newToken });
    expect(plan.action).to.equal('create');
    const secret = written(plan);
    expect(secret.metadata).to.deep.include({ name: 'acme-scim', namespace: 'ns' });
    expect(secret.metadata.ownerReferences).to.deep.equal([
      {
        apiVersion: 'dsync.io/v1alpha1',
        kind: 'DirectoryConnection',
        name: 'acme',
        uid: 'uid-1',
        controller: true,
        blockOwnerDeletion: true,
      },
    ]);
    expect(secret.data).to.deep.equal({ endpoint: b64(ENDPOINT), token: b64((plan as { token: string }).token) });
  });

  it('creates it holding the finalizer and naming the directory it guards: no write of their own', () => {
    const secret = written(planScimSecret({ owner: owner(), existing: undefined, endpoint: ENDPOINT, newToken }));
    expect(secret.metadata.finalizers).to.deep.equal([FINALIZER]);
    expect(secret.metadata.annotations).to.deep.equal({ [DIRECTORY_ID_ANNOTATION]: 'uid-1' });
    expect(guardedDirectory(secret)).to.equal('uid-1');
  });

  it('gives a Secret made before the finalizer moved the finalizer and the annotation, token and other finalizers kept', () => {
    const created = written(planScimSecret({ owner: owner(), existing: undefined, endpoint: ENDPOINT, newToken }));
    const old: Secret = {
      ...created,
      metadata: { ...created.metadata, annotations: {}, finalizers: ['example.com/keep'], resourceVersion: '4' },
    };
    expect(guardedDirectory(old), 'known from the owner reference meanwhile').to.equal('uid-1');
    const plan = planScimSecret({ owner: owner(), existing: old, endpoint: ENDPOINT, newToken });
    expect(plan).to.deep.include({ action: 'update', rotated: false });
    expect(written(plan).metadata.finalizers).to.deep.equal(['example.com/keep', FINALIZER]);
    expect(written(plan).metadata.annotations).to.deep.equal({ [DIRECTORY_ID_ANNOTATION]: 'uid-1' });
    expect(written(plan).data).to.deep.equal(created.data);
    expect(planScimSecret({ owner: owner(), existing: written(plan), endpoint: ENDPOINT, newToken }).action).to.equal(
      'none',
    );
  });

  it('knows the guarded directory from the annotation once an orphaning delete dropped the owner reference', () => {
    const created = written(planScimSecret({ owner: owner(), existing: undefined, endpoint: ENDPOINT, newToken }));
    expect(guardedDirectory({ metadata: { ...created.metadata, ownerReferences: [] } })).to.equal('uid-1');
    expect(guardedDirectory({ metadata: { name: 'x-scim' } })).to.equal(undefined);
  });

  it('keeps an existing token: nothing to write', () => {
    const created = written(planScimSecret({ owner: owner(), existing: undefined, endpoint: ENDPOINT, newToken }));
    const plan = planScimSecret({
      owner: owner(),
      existing: { ...created, metadata: { ...created.metadata, resourceVersion: '3' } },
      endpoint: ENDPOINT,
      newToken,
    });
    expect(plan).to.deep.equal({ action: 'none', token: Buffer.from(created.data!['token']!, 'base64').toString() });
  });

  it('refuses a Secret it does not control', () => {
    const foreign: Secret = {
      metadata: {
        name: 'acme-scim',
        namespace: 'ns',
        ownerReferences: [{ apiVersion: 'v1', kind: 'X', name: 'x', uid: 'other', controller: true }],
      },
    };
    expect(planScimSecret({ owner: owner(), existing: foreign, endpoint: ENDPOINT, newToken }).action).to.equal(
      'conflict',
    );
    expect(
      planScimSecret({ owner: owner(), existing: { metadata: { name: 'acme-scim' } }, endpoint: ENDPOINT, newToken })
        .action,
    ).to.equal('conflict');
  });

  it('rotates once per new annotation value and remembers it on the Secret', () => {
    const first = written(
      planScimSecret({
        owner: owner({ [ROTATE_ANNOTATION]: 'v1' }),
        existing: undefined,
        endpoint: ENDPOINT,
        newToken,
      }),
    );
    expect(first.metadata.annotations).to.deep.equal({
      [DIRECTORY_ID_ANNOTATION]: 'uid-1',
      [ROTATED_ANNOTATION]: 'v1',
    }); // created with v1: nothing to rotate
    const same = planScimSecret({
      owner: owner({ [ROTATE_ANNOTATION]: 'v1' }),
      existing: first,
      endpoint: ENDPOINT,
      newToken,
    });
    expect(same.action).to.equal('none');
    const rotate = planScimSecret({
      owner: owner({ [ROTATE_ANNOTATION]: 'v2' }),
      existing: first,
      endpoint: ENDPOINT,
      newToken,
    });
    expect(rotate).to.deep.include({ action: 'update', rotated: true });
    const after = written(rotate);
    expect(after.data!['token']).to.not.equal(first.data!['token']);
    expect(after.metadata.annotations).to.deep.equal({
      [DIRECTORY_ID_ANNOTATION]: 'uid-1',
      [ROTATED_ANNOTATION]: 'v2',
    });
    expect(
      planScimSecret({ owner: owner({ [ROTATE_ANNOTATION]: 'v2' }), existing: after, endpoint: ENDPOINT, newToken })
        .action,
    ).to.equal('none');
  });

  it('repairs a changed endpoint or a blanked token, keeping foreign labels and annotations', () => {
    const created = written(planScimSecret({ owner: owner(), existing: undefined, endpoint: ENDPOINT, newToken }));
    const tampered: Secret = {
      ...created,
      metadata: { ...created.metadata, labels: { ...created.metadata.labels, team: 'x' }, annotations: { note: 'y' } },
      data: { token: '' },
    };
    const plan = planScimSecret({
      owner: owner(),
      existing: tampered,
      endpoint: 'https://new.example.com/api/scim/v2.0/uid-1',
      newToken,
    });
    expect(plan).to.deep.include({ action: 'update', rotated: false });
    const repaired = written(plan);
    expect(repaired.metadata.labels).to.deep.equal({ 'app.kubernetes.io/managed-by': 'dsync-operator', team: 'x' });
    expect(repaired.metadata.annotations).to.deep.equal({ note: 'y', [DIRECTORY_ID_ANNOTATION]: 'uid-1' });
    expect(Object.keys(repaired.data!).sort()).to.deep.equal(['endpoint', 'token']);
    expect(repaired.data!['token']).to.not.equal('');
  });

  it('relabels a Secret of its own that lacks the managed-by label (earlier versions), keeping the token', () => {
    const created = written(planScimSecret({ owner: owner(), existing: undefined, endpoint: ENDPOINT, newToken }));
    const unlabelled: Secret = {
      ...created,
      metadata: { ...created.metadata, labels: undefined, resourceVersion: '7' },
    };
    const plan = planScimSecret({ owner: owner(), existing: unlabelled, endpoint: ENDPOINT, newToken });
    expect(plan).to.deep.include({ action: 'update', rotated: false });
    expect(written(plan).metadata.labels).to.deep.equal({ 'app.kubernetes.io/managed-by': 'dsync-operator' });
    expect(written(plan).data).to.deep.equal(created.data);
  });

  it('re-enables the webhook once per new reenable-webhook value, remembered on the Secret', () => {
    const first = written(
      planScimSecret({
        owner: owner({ [REENABLE_WEBHOOK_ANNOTATION]: 'a' }),
        existing: undefined,
        endpoint: ENDPOINT,
        newToken,
      }),
    );
    // Created with the value already set: handled (nothing of this Secret's life to re-enable).
    expect(first.metadata.annotations).to.deep.equal({
      [DIRECTORY_ID_ANNOTATION]: 'uid-1',
      [REENABLED_WEBHOOK_ANNOTATION]: 'a',
    });
    expect(pendingWebhookReenable(owner({ [REENABLE_WEBHOOK_ANNOTATION]: 'a' }), first)).to.equal(undefined);
    expect(pendingWebhookReenable(owner(), first)).to.equal(undefined);
    expect(pendingWebhookReenable(owner({ [REENABLE_WEBHOOK_ANNOTATION]: 'b' }), first)).to.equal('b');
    const handled = withWebhookReenabled(first, 'b');
    expect(pendingWebhookReenable(owner({ [REENABLE_WEBHOOK_ANNOTATION]: 'b' }), handled)).to.equal(undefined);
    // Token rotation and the SCIM Secret's repairs keep the value handled.
    const rotated = written(
      planScimSecret({
        owner: owner({ [ROTATE_ANNOTATION]: 'r', [REENABLE_WEBHOOK_ANNOTATION]: 'b' }),
        existing: handled,
        endpoint: ENDPOINT,
        newToken,
      }),
    );
    expect(rotated.metadata.annotations).to.deep.include({
      [REENABLED_WEBHOOK_ANNOTATION]: 'b',
      [ROTATED_ANNOTATION]: 'r',
    });
  });
});
