// The DirectoryConnection CRD as the real API server enforces it: what a kubectl user sees for invalid specs,
// the CEL immutability rules, defaults and the printer columns. No operator runs here.
import { expect } from 'chai';
import { DIRECTORY_CONNECTIONS, type DirectoryConnection } from '../../src/operator/crd-schema.js';
import { KubeApiError } from '../../src/operator/errors.js';
import { resourcePath } from '../../src/operator/kube.js';
import {
  connection,
  createConnection,
  patchConnection,
  startEnv,
  type Env,
  type SpecInput,
} from './operator-harness.js';

async function rejection(promise: Promise<unknown>): Promise<KubeApiError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'the API server accepted it').to.be.instanceOf(KubeApiError);
  return err as KubeApiError;
}

describe('DirectoryConnection CRD (real kube-apiserver)', function () {
  this.timeout(120_000);
  let env: Env;

  before(async () => {
    env = await startEnv();
  });

  after(async () => {
    await env?.stop();
  });

  const invalid: Array<[string, string, SpecInput, string]> = [
    [
      'a tenant with a colon',
      'bad-tenant',
      { tenant: 'acme:eu' },
      `spec.tenant: Invalid value: "acme:eu": spec.tenant in body should match '^[^:\\x00-\\x1f\\x7f]*$'`,
    ],
    [
      'a product with a colon',
      'bad-product',
      { product: 'a:b' },
      `spec.product in body should match '^[^:\\x00-\\x1f\\x7f]*$'`,
    ],
    [
      'a tenant with a newline',
      'ctl-tenant',
      { tenant: 'acme\neu' },
      `spec.tenant in body should match '^[^:\\x00-\\x1f\\x7f]*$'`,
    ],
    [
      'a name with a control character',
      'ctl-name',
      { name: 'Acme\u0007' },
      `spec.name in body should match '^[^\\x00-\\x1f\\x7f]*$'`,
    ],
    [
      'an unknown type',
      'bad-type',
      { type: 'ldap' },
      'spec.type: Unsupported value: "ldap": supported values: "azure-scim-v2", "okta-scim-v2"',
    ],
    [
      'a non-http webhook url',
      'bad-url',
      { webhook: { url: 'ftp://hooks.example.com', secretRef: { name: 'hook', key: 'secret' } } },
      `spec.webhook.url: Invalid value: "ftp://hooks.example.com": spec.webhook.url in body should match '^https?://'`,
    ],
    [
      'a 257-character name',
      'bad-name',
      { name: 'x'.repeat(257) },
      'spec.name: Too long: may not be more than 256 bytes',
    ],
    [
      'a tenant over 256 characters',
      'long-tenant',
      { tenant: 't'.repeat(257) },
      'spec.tenant: Too long: may not be more than 256 bytes',
    ],
    [
      'an empty tenant',
      'empty-tenant',
      { tenant: '' },
      'spec.tenant: Invalid value: "": spec.tenant in body should be at least 1 chars long',
    ],
    [
      'a webhook without secretRef',
      'no-ref',
      { webhook: { url: 'https://x.example' } as never },
      'spec.webhook.secretRef: Required value',
    ],
    ['a missing tenant', 'no-tenant', { tenant: undefined }, 'spec.tenant: Required value'],
    [
      'an empty name',
      'empty-name',
      { name: '' },
      'spec.name: Invalid value: "": spec.name in body should be at least 1 chars long',
    ],
    ['a blank name', 'blank-name', { name: '   ' }, 'spec.name: Invalid value: "   ": name must not be blank'],
    [
      'a webhook url without a host',
      'url-no-host',
      { webhook: { url: 'https://', secretRef: { name: 'hook', key: 'secret' } } },
      'spec.webhook.url: Invalid value: "https://": url must be an absolute http(s) URL with a host and no spaces',
    ],
    [
      'a webhook url with a space',
      'url-space',
      { webhook: { url: 'https://hooks.example.com/a b', secretRef: { name: 'hook', key: 'secret' } } },
      'spec.webhook.url: Invalid value: "https://hooks.example.com/a b": url must be an absolute http(s) URL with a host and no spaces',
    ],
    [
      'type google without spec.google',
      'google-bare',
      { type: 'google' },
      'spec.google: Required value: spec.google is required when type is google',
    ],
    [
      'spec.google on a SCIM type',
      'google-on-scim',
      { google: { domain: 'acme.com' } },
      'spec.google: Forbidden: spec.google is only allowed when type is google',
    ],
    [
      'type bamboohr without spec.hris',
      'hris-bare',
      { type: 'bamboohr' },
      'spec.hris: Required value: spec.hris is required when type is bamboohr, hibob or personio',
    ],
    [
      'spec.hris on a SCIM type',
      'hris-on-scim',
      { hris: { credentialsSecretRef: { name: 'hr', key: 'credentials.json' } } },
      'spec.hris: Forbidden: spec.hris is only allowed when type is bamboohr, hibob or personio',
    ],
  ];

  for (const [what, name, spec, message] of invalid) {
    it(`rejects ${what} with the message kubectl prints`, async () => {
      const cr = connection(name, spec);
      if (spec.tenant === undefined && 'tenant' in spec) delete (cr.spec as Record<string, unknown>)['tenant'];
      const err = await rejection(createConnection(env, cr));
      expect(err.status).to.equal(422);
      expect(err.reason).to.equal('Invalid');
      expect(err.message).to.contain(`DirectoryConnection.dsync.io "${name}" is invalid: `);
      expect(err.message, err.message).to.contain(message);
    });
  }

  it('accepts type google with spec.google, an HRIS type with spec.hris, and a URL with a port, path and query', async () => {
    await createConnection(env, connection('google-ok', { type: 'google', google: { domain: 'acme.com' } }));
    await createConnection(
      env,
      connection('hris-ok', {
        type: 'personio',
        hris: { credentialsSecretRef: { name: 'hr', key: 'credentials.json' } },
      }),
    );
    const webhook = { url: 'https://hooks.example.com:8443/in?x=1', secretRef: { name: 'hook', key: 'secret' } };
    await createConnection(env, connection('url-ok', { webhook }));
  });

  it('rejects a resource name too long for its <name>-scim Secret', async () => {
    const err = await rejection(createConnection(env, connection('n'.repeat(249), { name: 'Long' })));
    expect(err.message).to.contain('metadata.name: Too long: may not be more than 248 bytes');
    await createConnection(env, connection('n'.repeat(248), { name: 'Longest' }));
  });

  it('rejects unknown fields under strict field validation (kubectl default)', async () => {
    const path = resourcePath(DIRECTORY_CONNECTIONS, 'default');
    const body = connection('unknown-field', { colour: 'red' });
    const err = await rejection(env.kube.request('POST', path, { query: { fieldValidation: 'Strict' }, body }));
    expect(err.status).to.equal(400);
    expect(err.message).to.contain('unknown field "spec.colour"');
  });

  it('keeps tenant, product and type immutable (CEL transition rules)', async () => {
    await createConnection(env, connection('immutable'));
    for (const [field, value] of [
      ['tenant', 'globex'],
      ['product', 'other'],
      ['type', 'azure-scim-v2'],
    ] as const) {
      const err = await rejection(patchConnection(env, 'immutable', { spec: { [field]: value } }));
      expect(err.status).to.equal(422);
      expect(err.message).to.contain(
        `spec.${field}: Invalid value: "${value}": ${field} is immutable; create a new DirectoryConnection instead`,
      );
    }
    const renamed = await patchConnection(env, 'immutable', { spec: { name: 'Renamed', deactivated: true } });
    expect(renamed.metadata.generation).to.equal(2);
  });

  it('defaults the flags and accepts a full spec', async () => {
    const created = await createConnection(
      env,
      connection('full', {
        type: 'google',
        webhook: { url: 'https://hooks.example.com/dsync', secretRef: { name: 'hook', key: 'secret' } },
        google: { domain: 'example.com' },
      }),
    );
    expect(created.spec).to.deep.include({
      logWebhookEvents: false,
      deactivated: false,
      google: { domain: 'example.com', nestedGroups: false },
    });
  });

  it('shows Ready, Type, Tenant, Product, Endpoint and Age in kubectl get', async () => {
    const cr = await createConnection(env, connection('columns', { tenant: 'initech', product: 'crm' }));
    await env.kube.mergePatch<DirectoryConnection>(
      DIRECTORY_CONNECTIONS,
      'default',
      'columns',
      {
        status: {
          scimEndpoint: 'https://dsync.example.com/api/scim/v2.0/x',
          conditions: [
            {
              type: 'Ready',
              status: 'True',
              reason: 'Reconciled',
              message: 'ok',
              lastTransitionTime: '2026-01-01T00:00:00Z',
            },
          ],
        },
      },
      'status',
    );
    const rendered = await tableOf(env, cr.metadata.name);
    expect(rendered.columns).to.deep.equal(['Name', 'Ready', 'Reason', 'Type', 'Tenant', 'Product', 'Endpoint', 'Age']);
    expect(rendered.row.slice(0, 7)).to.deep.equal([
      'columns',
      'True',
      'Reconciled',
      'okta-scim-v2',
      'initech',
      'crm',
      'https://dsync.example.com/api/scim/v2.0/x',
    ]);
  });
});

/** GET with kubectl's Accept header: the API server renders the CRD's printer columns as a Table. */
async function tableOf(env: Env, name: string): Promise<{ columns: string[]; row: unknown[] }> {
  const table = await env.kube.request<{
    columnDefinitions: Array<{ name: string }>;
    rows: Array<{ cells: unknown[] }>;
  }>('GET', resourcePath(DIRECTORY_CONNECTIONS, 'default', name), {
    accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
  });
  return { columns: table.columnDefinitions.map((c) => c.name), row: table.rows[0]!.cells };
}
