// The CRD cannot drift: the committed YAML is exactly what crd-schema.ts generates, and the CRD's rules agree
// with the core's create-input validation (the management API's rules).
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { parse } from 'yaml';
import { createDirectoryInput } from '../../../src/core/directory-input.js';
import { DIRECTORY_TYPES } from '../../../src/core/model.js';
import { chartCrdTemplate, crdYaml, directoryConnectionCrd } from '../../../src/operator/crd-manifest.js';
import { directoryConnectionSpec } from '../../../src/operator/crd-schema.js';
import { directoryInput } from '../../../src/operator/desired-directory.js';
import { CHART_CRD_FILE, CRD_FILE } from '../../../scripts/generate/crd.js';

type Schema = {
  properties: Record<string, Schema>;
  required?: string[];
  enum?: string[];
  maxLength?: number;
  pattern?: string;
};

const specSchema = (): Schema => {
  const crd = directoryConnectionCrd() as { spec: { versions: Array<{ schema: { openAPIV3Schema: Schema } }> } };
  return crd.spec.versions[0]!.schema.openAPIV3Schema.properties['spec']!;
};

const base = { name: 'Acme', tenant: 'acme', product: 'app', type: 'okta-scim-v2' };

describe('DirectoryConnection CRD schema', () => {
  it('the committed crds/ YAML is the generated one (run `npm run crd`)', () => {
    expect(readFileSync(CRD_FILE, 'utf8')).to.equal(crdYaml());
  });

  it('the chart template is the same CRD behind crds.enabled', () => {
    const template = readFileSync(CHART_CRD_FILE, 'utf8');
    expect(template).to.equal(chartCrdTemplate());
    const lines = template.split('\n');
    expect(lines[1]).to.equal('{{- if .Values.crds.enabled }}');
    const untemplated = lines.filter((l) => !l.includes('{{')).join('\n');
    const rendered = parse(untemplated) as { metadata: { labels: unknown } } & Record<string, unknown>;
    const { metadata: _m, ...rest } = rendered;
    const { metadata: _n, ...expected } = directoryConnectionCrd();
    expect(rest).to.deep.equal(expected);
  });

  it('is structural: every property typed, no additionalProperties beside properties', () => {
    const walk = (node: Record<string, unknown>, path: string): void => {
      if (path !== '' && !('type' in node)) throw new Error(`${path} has no type`);
      // A map (spec.attributeMapping) is additionalProperties alone.
      if (node['properties']) expect(node, path).to.not.have.property('additionalProperties');
      expect(node, path).to.not.have.property('$schema');
      for (const [key, child] of Object.entries((node['properties'] as Record<string, Record<string, unknown>>) ?? {}))
        walk(child, `${path}.${key}`);
      if (node['items']) walk(node['items'] as Record<string, unknown>, `${path}[]`);
      if (typeof node['additionalProperties'] === 'object')
        walk(node['additionalProperties'] as Record<string, unknown>, `${path}.*`);
    };
    const crd = directoryConnectionCrd() as {
      spec: { versions: Array<{ schema: { openAPIV3Schema: Record<string, unknown> } }> };
    };
    walk(crd.spec.versions[0]!.schema.openAPIV3Schema, '');
  });

  it('bounds every string and list (CEL cost estimation needs it)', () => {
    const walk = (node: Record<string, unknown>, path: string): void => {
      if (node['type'] === 'string' && !node['enum'] && !path.endsWith('.apiVersion') && !path.endsWith('.kind')) {
        expect(node, path).to.have.property('maxLength');
      }
      if (node['type'] === 'array') expect(node, path).to.have.property('maxItems');
      if (typeof node['additionalProperties'] === 'object') expect(node, path).to.have.property('maxProperties');
      for (const [key, child] of Object.entries((node['properties'] as Record<string, Record<string, unknown>>) ?? {}))
        walk(child, `${path}.${key}`);
      if (node['items']) walk(node['items'] as Record<string, unknown>, `${path}[]`);
      if (typeof node['additionalProperties'] === 'object')
        walk(node['additionalProperties'] as Record<string, unknown>, `${path}.*`);
    };
    const crd = directoryConnectionCrd() as {
      spec: { versions: Array<{ schema: { openAPIV3Schema: Record<string, unknown> } }> };
    };
    walk(crd.spec.versions[0]!.schema.openAPIV3Schema, '');
  });

  it('takes its limits and the type enum from the core create input', () => {
    const spec = specSchema();
    expect(spec.properties['type']!.enum).to.deep.equal([...DIRECTORY_TYPES]);
    const core = createDirectoryInput.shape;
    expect(spec.properties['name']!.maxLength).to.equal(core.name.maxLength);
    expect(spec.properties['tenant']!.maxLength).to.equal(core.tenant.maxLength);
    expect(spec.properties['product']!.maxLength).to.equal(core.product.maxLength);
    expect(spec.properties['webhook']!.properties['url']!.maxLength).to.equal(2048);
    expect(spec.properties['tenant']!.pattern).to.equal('^[^:\\x00-\\x1f\\x7f]*$');
    expect(spec.properties['name']!.pattern).to.equal('^[^\\x00-\\x1f\\x7f]*$');
    expect(spec.properties['webhook']!.properties['url']!.pattern).to.equal('^https?://');
    expect(spec.required).to.deep.equal(['name', 'tenant', 'product', 'type']);
  });

  // Each sample: does the CRD accept it, and does the core's create input? They must agree, except where the
  // core is stricter than JSON Schema can say (trimming): the operator reports those as InvalidSpec.
  const samples: Array<[string, Record<string, unknown>, boolean]> = [
    ['a minimal spec', {}, true],
    ['every type', {}, true],
    ['a colon in tenant', { tenant: 'a:b' }, false],
    ['a colon in product', { product: 'a:b' }, false],
    ['a control character in tenant', { tenant: 'a\u0000b' }, false],
    ['a newline in name', { name: 'a\nb' }, false],
    [
      'a webhook url with credentials',
      { webhook: { url: 'https://u:p@h.example/x', secretRef: { name: 'h', key: 'k' } } },
      false,
    ],
    ['a 256-character tenant', { tenant: 't'.repeat(256) }, true],
    ['a 257-character tenant', { tenant: 't'.repeat(257) }, false],
    ['a 256-character name', { name: 'n'.repeat(256) }, true],
    ['a 257-character name', { name: 'n'.repeat(257) }, false],
    ['an empty product', { product: '' }, false],
    ['an unknown type', { type: 'ldap' }, false],
    ['an https webhook', { webhook: { url: 'https://h.example/x', secretRef: { name: 'h', key: 'k' } } }, true],
    ['an http webhook', { webhook: { url: 'http://h.example/x', secretRef: { name: 'h', key: 'k' } } }, true],
    ['an ftp webhook', { webhook: { url: 'ftp://h.example/x', secretRef: { name: 'h', key: 'k' } } }, false],
    [
      'a 2049-character webhook url',
      { webhook: { url: `https://h.example/${'x'.repeat(2031)}`, secretRef: { name: 'h', key: 'k' } } },
      false,
    ],
    ['a google domain', { type: 'google', google: { domain: 'example.com' } }, true],
    [
      'an attribute mapping',
      { attributeMapping: { badge: 'urn:ietf:params:scim:schemas:extension:acme:2.0:User:badge', site: '' } },
      true,
    ],
  ];

  for (const [what, overrides, valid] of samples) {
    it(`agrees with the core on ${what} (${valid ? 'valid' : 'invalid'})`, () => {
      const types = what === 'every type' ? DIRECTORY_TYPES : [overrides['type'] ?? base.type];
      for (const type of types) {
        // type google needs spec.google, the HRIS types spec.hris (CRD rules the core's flat input has no counterpart
        // of)
        const google = type === 'google' && !overrides['google'] ? { google: { domain: 'example.com' } } : {};
        const hris = ['bamboohr', 'hibob', 'personio'].includes(String(type))
          ? { hris: { credentialsSecretRef: { name: 'hr', key: 'credentials.json' } } }
          : {};
        const spec: Record<string, unknown> = { ...base, ...overrides, type, ...google, ...hris };
        const crd = directoryConnectionSpec.safeParse(spec);
        expect(crd.success, `CRD on ${type}`).to.equal(valid);
        const core = createDirectoryInput.safeParse({
          name: spec['name'],
          tenant: spec['tenant'],
          product: spec['product'],
          type: spec['type'],
          ...(spec['webhook'] !== undefined && {
            webhook_url: (spec['webhook'] as { url: string }).url,
            webhook_secret: 'whsec_x',
          }),
          ...(spec['attributeMapping'] !== undefined && { attribute_mapping: spec['attributeMapping'] }),
        });
        expect(core.success, `core on ${type}`).to.equal(valid);
        if (crd.success) expect(() => directoryInput(crd.data, 'whsec_x')).to.not.throw();
      }
    });
  }

  it('refuses a name blank once trimmed, in the operator and (CEL) in the API server', () => {
    expect(specSchema().properties['name']).to.deep.include({ minLength: 1 });
    const rules = (
      specSchema().properties['name'] as unknown as { 'x-kubernetes-validations': Array<{ rule: string }> }
    )['x-kubernetes-validations'];
    expect(rules[0]!.rule).to.equal(String.raw`self.matches('\\S')`);
    const crd = directoryConnectionSpec.safeParse({ ...base, name: '   ' });
    expect(crd.error?.issues[0]?.message).to.equal('name must not be empty');
    expect(createDirectoryInput.safeParse({ ...base, name: '   ' }).success).to.equal(false);
  });

  it('the operator applies the CRD rules on spec.google too (an old CRD without them cannot slip one through)', () => {
    const bare = directoryConnectionSpec.safeParse({ ...base, type: 'google' });
    expect(bare.error?.issues[0]).to.include({ message: 'spec.google is required when type is google' });
    const misplaced = directoryConnectionSpec.safeParse({ ...base, google: { domain: 'acme.com' } });
    expect(misplaced.error?.issues[0]).to.include({ message: 'spec.google is only allowed when type is google' });
  });
});
