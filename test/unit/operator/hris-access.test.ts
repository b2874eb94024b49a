/** The operator's HRIS part: the HrisSync condition, credentials from a Secret's JSON, and the spec's rules. */
import { expect } from 'chai';
import { ValidationError } from '../../../src/core/errors.js';
import { directoryConnectionSpec } from '../../../src/operator/crd-schema.js';
import { HrisAccess, hrisSyncCondition } from '../../../src/operator/hris-access.js';
import { initialStatus } from '../../../src/providers/hris/sync-status.js';
import { MemoryStore } from '../../../src/store/memory/users-groups.js';

const base = { name: 'A', tenant: 't', product: 'p' };

describe('operator: HRIS access', () => {
  it('reports the last sync as the HrisSync condition', () => {
    const status = initialStatus('d');
    expect(hrisSyncCondition(status)).to.deep.include({ type: 'HrisSync', status: 'Unknown', reason: 'Pending' });
    expect(
      hrisSyncCondition({ ...status, state: 'succeeded', finished_at: 'T', mode: 'changed-since', employees_read: 3 }),
    ).to.deep.include({
      status: 'True',
      reason: 'Synced',
      message: 'Last sync T (changed-since): 3 employees read',
    });
    const revoked = {
      ...status,
      state: 'invalid_credentials' as const,
      error: {
        code: 'DSYNC_HRIS_INVALID_CREDENTIALS',
        message: 'BambooHR refused the credentials (HTTP 401: Invalid API key)',
      },
    };
    expect(hrisSyncCondition(revoked)).to.deep.include({
      status: 'False',
      reason: 'InvalidCredentials',
      message: revoked.error.message,
    });
  });

  it("reads the Secret's JSON with the type's rules, and stores it only when it changed (clearing the cursor)", async () => {
    const creds = HrisAccess.credentialsOf('bamboohr', '{"subdomain": "acme", "api_key": "k1"}');
    expect(creds).to.deep.equal({ subdomain: 'acme', api_key: 'k1' });
    expect(() => HrisAccess.credentialsOf('bamboohr', 'k1')).to.throw(ValidationError, /JSON object/);
    expect(() => HrisAccess.credentialsOf('hibob', '{"subdomain": "acme", "api_key": "k1"}')).to.throw(ValidationError);
    const store = new MemoryStore();
    await store.createDirectory({ id: 'd' } as never);
    await store.putSyncRecord('d', 'hris-cursor', '{"since":"2026-01-01T00:00:00Z","connected_at":"x"}');
    const access = new HrisAccess(store);
    expect(await access.apply('d', creds)).to.equal(true);
    expect(await access.apply('d', creds)).to.equal(false);
    expect(JSON.parse((await store.getSyncRecord('d', 'hris-credentials'))!).credentials).to.deep.equal(creds);
    expect(await store.getSyncRecord('d', 'hris-cursor')).to.equal(null);
  });

  it('the spec requires spec.hris for the HRIS types, and allows it for no other', () => {
    const ref = { credentialsSecretRef: { name: 'bamboo', key: 'credentials.json' } };
    expect(directoryConnectionSpec.safeParse({ ...base, type: 'bamboohr', hris: ref }).success).to.equal(true);
    const missing = directoryConnectionSpec.safeParse({ ...base, type: 'personio' });
    expect(missing.success).to.equal(false);
    expect(missing.error!.issues[0]!.message).to.equal(
      'spec.hris is required when type is bamboohr, hibob or personio',
    );
    const forbidden = directoryConnectionSpec.safeParse({ ...base, type: 'okta-scim-v2', hris: ref });
    expect(forbidden.error!.issues[0]!.message).to.equal(
      'spec.hris is only allowed when type is bamboohr, hibob or personio',
    );
  });
});
