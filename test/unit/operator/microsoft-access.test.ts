/** The MicrosoftSync condition and the spec.microsoft rules. */
import { expect } from 'chai';
import { microsoftSyncCondition } from '../../../src/operator/microsoft-access.js';
import { directoryInput, planDirectory } from '../../../src/operator/desired-directory.js';
import { directoryConnectionSpec } from '../../../src/operator/crd-schema.js';
import { initialStatus } from '../../../src/providers/microsoft/sync-status.js';

const TENANT = 'aaaaaaaa-1111-4111-8111-111111111111';

describe('Operator: Microsoft Entra ID connections', () => {
  it('MicrosoftSync: waiting for consent, synced with its mode, consent revoked as InvalidCredentials', () => {
    const status = initialStatus('d1');
    expect(microsoftSyncCondition(status)).to.deep.include({
      type: 'MicrosoftSync',
      status: 'Unknown',
      reason: 'Pending',
    });
    expect(microsoftSyncCondition(status).message).to.match(/consent/);
    const synced = {
      ...status,
      state: 'succeeded' as const,
      finished_at: 'T',
      mode: 'delta' as const,
      tenant_id: TENANT,
    };
    expect(microsoftSyncCondition(synced)).to.deep.include({ status: 'True', reason: 'Synced' });
    expect(microsoftSyncCondition(synced).message).to.include(`(delta) of tenant ${TENANT}`);
    const revoked = {
      ...status,
      state: 'invalid_credentials' as const,
      error: { code: 'DSYNC_MICROSOFT_INVALID_CREDENTIALS', message: 'Entra refused' },
    };
    expect(microsoftSyncCondition(revoked)).to.deep.include({
      status: 'False',
      reason: 'InvalidCredentials',
      message: 'Entra refused',
    });
  });

  it('spec.microsoft only with type microsoft-entra; its tenant goes to the directory, and a consented tenant is kept when the spec names none', () => {
    const base = { name: 'Acme', tenant: 'acme', product: 'app' };
    expect(
      directoryConnectionSpec.safeParse({ ...base, type: 'okta-scim-v2', microsoft: {} }).error?.issues[0]?.message,
    ).to.equal('spec.microsoft is only allowed when type is microsoft-entra');
    const named = directoryConnectionSpec.parse({
      ...base,
      type: 'microsoft-entra',
      microsoft: { tenantId: TENANT, nestedGroups: true },
    });
    expect(directoryInput(named)).to.deep.include({
      type: 'microsoft-entra',
      microsoft_tenant_id: TENANT,
      microsoft_nested_groups: true,
    });
    const unnamed = directoryConnectionSpec.parse({ ...base, type: 'microsoft-entra' });
    const desired = { input: directoryInput(unnamed), scim: { secret: 's', endpoint: 'e' }, managedBy: 'op' };
    const current = {
      id: 'd1',
      ...base,
      type: 'microsoft-entra' as const,
      log_webhook_events: false,
      deactivated: false,
      microsoft_tenant_id: TENANT,
      scim: { path: 'p', secret: 's', endpoint: 'e' },
      webhook: { endpoint: '', secret: '' },
      managed_by: 'op',
      created_at: 'T',
      updated_at: 'T',
    };
    expect(planDirectory(current, desired)).to.deep.equal({ action: 'none' });
  });
});
