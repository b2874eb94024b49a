import { expect } from 'chai';
import { ValidationError } from '../../../src/core/errors.js';
import type { Directory } from '../../../src/core/model.js';
import type { DirectoryConnectionSpec } from '../../../src/operator/crd-schema.js';
import {
  directoryInput,
  planDirectory,
  specFieldMessage,
  type DesiredDirectory,
} from '../../../src/operator/desired-directory.js';

const spec: DirectoryConnectionSpec = {
  name: 'Acme',
  tenant: 'acme',
  product: 'app',
  type: 'google',
  webhook: { url: 'https://hooks.example.com', secretRef: { name: 'hook', key: 'secret' } },
  logWebhookEvents: false,
  deactivated: false,
  inactiveUsers: 'keep',
  google: { domain: 'acme.com', nestedGroups: false },
};

const desired = (overrides: Partial<DirectoryConnectionSpec> = {}, webhookSecret = 'whsec_1'): DesiredDirectory => ({
  input: directoryInput({ ...spec, ...overrides }, webhookSecret),
  scim: { secret: 'tok', endpoint: 'https://dsync.example.com/api/scim/v2.0/d1' },
  managedBy: 'kubernetes:ns/acme',
});

const stored: Directory = {
  id: 'd1',
  name: 'Acme',
  tenant: 'acme',
  product: 'app',
  type: 'google',
  log_webhook_events: false,
  deactivated: false,
  scim: { path: '/api/scim/v2.0/d1', secret: 'tok', endpoint: 'https://dsync.example.com/api/scim/v2.0/d1' },
  webhook: { endpoint: 'https://hooks.example.com', secret: 'whsec_1' },
  google_domain: 'acme.com',
  google_refresh_token: 'refresh',
  managed_by: 'kubernetes:ns/acme',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('desired directory', () => {
  it('maps the spec onto the core create input', () => {
    expect(directoryInput(spec, 'whsec_1')).to.deep.equal({
      name: 'Acme',
      tenant: 'acme',
      product: 'app',
      type: 'google',
      webhook_url: 'https://hooks.example.com',
      webhook_secret: 'whsec_1',
      log_webhook_events: false,
      deactivated: false,
      google_domain: 'acme.com',
    });
    expect(() => directoryInput(spec, '')).to.throw(ValidationError, 'webhook_secret');
  });

  it("maps spec.roleMapping onto the directory's role_mapping, updates when it changes and drops it when the spec does", () => {
    const roleMapping = { defaultRole: 'member', rules: [{ group: 'Admins', role: 'admin', priority: 10 }] };
    const role_mapping = { default_role: 'member', rules: [{ group: 'Admins', role: 'admin', priority: 10 }] };
    expect(directoryInput({ ...spec, roleMapping }, 'whsec_1').role_mapping).to.deep.equal(role_mapping);
    const plan = planDirectory(stored, desired({ roleMapping }));
    expect(plan.action === 'update' && plan.next.role_mapping).to.deep.equal(role_mapping);
    expect(planDirectory({ ...stored, role_mapping }, desired({ roleMapping }))).to.deep.equal({ action: 'none' });
    const dropped = planDirectory({ ...stored, role_mapping }, desired());
    expect(dropped.action === 'update' && 'role_mapping' in dropped.next).to.equal(false);
    expect(() =>
      directoryInput({ ...spec, roleMapping: { rules: [{ group: '', role: 'admin', priority: 1 }] } }, 'whsec_1'),
    ).to.throw(ValidationError, 'role_mapping.rules.0.group');
  });

  it("maps spec.attributeMapping onto the directory's attribute_mapping, updates when it changes and drops it when the spec does", () => {
    const attributeMapping = { badge: 'urn:ietf:params:scim:schemas:extension:acme:2.0:User:badge', site: '' };
    expect(directoryInput({ ...spec, attributeMapping }, 'whsec_1').attribute_mapping).to.deep.equal(attributeMapping);
    const plan = planDirectory(stored, desired({ attributeMapping }));
    expect(plan.action === 'update' && plan.next.attribute_mapping).to.deep.equal(attributeMapping);
    expect(
      planDirectory({ ...stored, attribute_mapping: attributeMapping }, desired({ attributeMapping })),
    ).to.deep.equal({ action: 'none' });
    const changed = planDirectory(
      { ...stored, attribute_mapping: attributeMapping },
      desired({ attributeMapping: { ...attributeMapping, site: 'google:orgUnitPath' } }),
    );
    expect(changed.action === 'update' && changed.next.attribute_mapping?.site).to.equal('google:orgUnitPath');
    const dropped = planDirectory({ ...stored, attribute_mapping: attributeMapping }, desired());
    expect(dropped.action === 'update' && 'attribute_mapping' in dropped.next).to.equal(false);
  });

  it("words a refused spec with the spec's own field names (InvalidSpec)", () => {
    const refusal = (overrides: Partial<DirectoryConnectionSpec>, secret = 'whsec_1') => {
      try {
        directoryInput({ ...spec, ...overrides }, secret);
      } catch (err) {
        if (err instanceof ValidationError) return specFieldMessage(err);
        throw err;
      }
      throw new Error('accepted');
    };
    expect(refusal({ attributeMapping: { country: 'addresses[type eq work].country' } })).to.match(
      /^spec\.attributeMapping\.country: "addresses\[type eq work\]\.country": the filter/,
    );
    expect(refusal({ attributeMapping: { '9lives': 'title' } })).to.match(
      /^spec\.attributeMapping\.9lives: a custom attribute name is a letter/,
    );
    expect(refusal({}, '')).to.match(/^webhook_secret.*\(value of spec\.webhook\.secretRef\)$/);
  });

  it('creates when nothing is stored, does nothing when all matches', () => {
    expect(planDirectory(null, desired())).to.deep.equal({ action: 'create' });
    expect(planDirectory(stored, desired())).to.deep.equal({ action: 'none' });
  });

  it('updates what the spec, the webhook secret or the token changed, keeping the rest (OAuth tokens)', () => {
    const now = new Date('2026-02-02T00:00:00.000Z');
    const plan = planDirectory(
      stored,
      {
        ...desired({ name: 'Acme 2', deactivated: true, google: undefined }, 'whsec_2'),
        scim: { ...desired().scim, secret: 'tok2' },
      },
      now,
    );
    if (plan.action !== 'update') throw new Error(plan.action);
    expect(plan.next).to.deep.include({
      name: 'Acme 2',
      deactivated: true,
      google_refresh_token: 'refresh',
      updated_at: now.toISOString(),
      created_at: stored.created_at,
    });
    expect(plan.next.webhook).to.deep.equal({ endpoint: 'https://hooks.example.com', secret: 'whsec_2' });
    expect(plan.next.scim).to.deep.equal({ ...stored.scim, secret: 'tok2' });
    expect(plan.next).to.not.have.property('google_domain');
  });

  it('clears the webhook when the spec drops it', () => {
    const plan = planDirectory(stored, desired({ webhook: undefined }));
    if (plan.action !== 'update') throw new Error(plan.action);
    expect(plan.next.webhook).to.deep.equal({ endpoint: '', secret: '' });
  });

  describe('a webhook a 410 Gone disabled', () => {
    const disabled: Directory = { ...stored, webhook_disabled_at: '2026-03-03T00:00:00.000Z' };
    const next = (plan: ReturnType<typeof planDirectory>): Directory => {
      if (plan.action !== 'update') throw new Error(`expected an update, got ${plan.action}`);
      return plan.next;
    };

    it('stays disabled while the webhook is unchanged (nothing to write)', () => {
      expect(planDirectory(disabled, desired())).to.deep.equal({ action: 'none' });
      expect(next(planDirectory(disabled, desired({ name: 'Acme 2' })))).to.include({
        webhook_disabled_at: disabled.webhook_disabled_at,
      });
    });

    it('is re-enabled by a new webhook url or secret', () => {
      const url = next(
        planDirectory(
          disabled,
          desired({ webhook: { url: 'https://new.example.com', secretRef: { name: 'hook', key: 'secret' } } }),
        ),
      );
      expect(url).to.not.have.property('webhook_disabled_at');
      expect(url.webhook.endpoint).to.equal('https://new.example.com');
      expect(next(planDirectory(disabled, desired({}, 'whsec_2')))).to.not.have.property('webhook_disabled_at');
      expect(next(planDirectory(disabled, desired({ webhook: undefined })))).to.not.have.property(
        'webhook_disabled_at',
      );
    });

    it('is re-enabled, same webhook, when asked (reenableWebhook); a no-op when it is not disabled', () => {
      const plan = planDirectory(disabled, { ...desired(), reenableWebhook: true });
      expect(next(plan)).to.not.have.property('webhook_disabled_at');
      expect(next(plan).webhook).to.deep.equal(stored.webhook);
      expect(planDirectory(stored, { ...desired(), reenableWebhook: true })).to.deep.equal({ action: 'none' });
    });
  });

  it('inactiveUsers: delete is set and taken back; keep leaves a directory stored before the setting unchanged', () => {
    expect(directoryInput({ ...spec, inactiveUsers: 'delete' }, 'whsec_1')).to.include({ inactive_users: 'delete' });
    expect(directoryInput(spec, 'whsec_1')).not.to.have.property('inactive_users');
    const toDelete = planDirectory(stored, desired({ inactiveUsers: 'delete' }));
    expect(toDelete.action).to.equal('update');
    const deleting = (toDelete as { next: Directory }).next;
    expect(deleting.inactive_users).to.equal('delete');
    expect(planDirectory(deleting, desired({ inactiveUsers: 'delete' }))).to.deep.equal({ action: 'none' });
    const back = planDirectory(deleting, desired());
    expect((back as { next: Directory }).next.inactive_users).to.equal('keep');
    expect(planDirectory(stored, desired())).to.deep.equal({ action: 'none' });
    expect(planDirectory({ ...stored, inactive_users: 'keep' }, desired())).to.deep.equal({ action: 'none' });
  });

  it('refuses to change tenant, product or type of a stored directory', () => {
    expect(planDirectory({ ...stored, tenant: 'other' }, desired())).to.deep.equal({
      action: 'immutable',
      field: 'tenant',
      stored: 'other',
    });
    expect(planDirectory({ ...stored, type: 'okta-scim-v2' }, desired())).to.deep.include({
      action: 'immutable',
      field: 'type',
    });
  });
});
