/** The operator's Google part: the GoogleSync condition from a sync status, and the service account from a Secret. */
import { generateKeyPairSync } from 'node:crypto';
import { expect } from 'chai';
import { ValidationError } from '../../../src/core/errors.js';
import type { DirectoryConnectionSpec } from '../../../src/operator/crd-schema.js';
import { GoogleAccess, googleSyncCondition } from '../../../src/operator/google-access.js';
import { initialStatus } from '../../../src/providers/google/sync-status.js';
import { MemoryStore } from '../../../src/store/memory/users-groups.js';

const spec = (serviceAccount?: object): DirectoryConnectionSpec =>
  ({
    name: 'A',
    tenant: 't',
    product: 'p',
    type: 'google',
    logWebhookEvents: false,
    deactivated: false,
    google: { domain: 'a.com', nestedGroups: false, ...(serviceAccount && { serviceAccount }) },
  }) as DirectoryConnectionSpec;

describe('operator: Google access', () => {
  it('reports the last sync as the GoogleSync condition', () => {
    const status = initialStatus('d');
    expect(googleSyncCondition(status)).to.deep.include({ type: 'GoogleSync', status: 'Unknown', reason: 'Pending' });
    expect(
      googleSyncCondition({ ...status, state: 'succeeded', finished_at: 'T', listed: { users: 3, groups: 1 } }),
    ).to.deep.include({
      status: 'True',
      reason: 'Synced',
      message: 'Last sync T: 3 users and 1 groups listed',
    });
    const revoked = {
      ...status,
      state: 'invalid_credentials' as const,
      error: { code: 'DSYNC_GOOGLE_INVALID_CREDENTIALS', message: 'Google refused' },
    };
    expect(googleSyncCondition(revoked)).to.deep.include({
      status: 'False',
      reason: 'InvalidCredentials',
      message: 'Google refused',
    });
    expect(googleSyncCondition({ ...status, state: 'guarded' }).reason).to.equal('MassDeletionGuard');
  });

  it("hands the Secret's service account to the store only when it changed, and removes it with the spec", async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const key = JSON.stringify({
      type: 'service_account',
      client_email: 'sa@p.iam.gserviceaccount.com',
      private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }),
    });
    const ref = { secretRef: { name: 'sa', key: 'key.json' }, adminEmail: 'admin@a.com' };
    const account = GoogleAccess.serviceAccountOf(spec(ref), key);
    expect(account).to.deep.include({ clientEmail: 'sa@p.iam.gserviceaccount.com', adminEmail: 'admin@a.com' });
    expect(GoogleAccess.serviceAccountOf(spec(), undefined)).to.equal(null);
    expect(() => GoogleAccess.serviceAccountOf(spec(ref), '{"type":"user"}')).to.throw(ValidationError);

    const store = new MemoryStore();
    await store.createDirectory({ id: 'd' } as never);
    const access = new GoogleAccess(store);
    expect(await access.apply('d', account)).to.equal(true);
    expect(await access.apply('d', account)).to.equal(false);
    expect(await store.getSyncRecord('d', 'google-service-account')).to.contain('sa@p.iam.gserviceaccount.com');
    expect(await access.apply('d', null)).to.equal(true);
    expect(await store.getSyncRecord('d', 'google-service-account')).to.equal(null);
  });
});
