/**
 * The labels, annotations and finalizers of the operator live in src/operator/metadata-keys.ts, each described
 * in its table (the reference page is generated from it): no key is written anywhere else in src/operator, and
 * every constant of the module has its entry.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import * as metadata from '../../../src/operator/metadata-keys.js';
import { repoRoot } from '../../support/cli.js';

/**
 * A label, annotation or finalizer key of ours or of Kubernetes' conventions (not an apiVersion such as
 * dsync.io/v1alpha1).
 */
const KEY = /^(?:dsync\.io|(?:[a-z0-9-]+\.)*kubernetes\.io)\/(?!v\d)[a-z0-9.-]+$/;

/** The code of a file without its comments (which name the keys in backticks, as the docs do). */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');

describe('operator metadata keys: one module, each described', () => {
  it('no label, annotation or finalizer key is written in src/operator outside metadata-keys.ts', () => {
    const dir = join(repoRoot, 'src/operator');
    const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter(
      (f) => f.endsWith('.ts') && f !== 'metadata-keys.ts',
    );
    expect(files).to.include('scim-secret.ts');
    const strays = files.flatMap((file) =>
      [...withoutComments(readFileSync(join(dir, file), 'utf8')).matchAll(/(['"`])([^'"`\s]+)\1/g)]
        .filter((m) => KEY.test(m[2]!))
        .map((m) => `${file}: ${m[2]}`),
    );
    expect(strays, 'declare these in src/operator/metadata-keys.ts, with an entry in its table').to.deep.equal([]);
    expect(KEY.test('dsync.io/finalizer') && !KEY.test('dsync.io/v1alpha1')).to.equal(true);
  });

  it('every key the module declares has its entry in the table', () => {
    const declared = Object.values(metadata).flatMap((value) =>
      typeof value === 'string'
        ? [value]
        : typeof value === 'object' && !Array.isArray(value)
          ? Object.keys(value)
          : [],
    );
    const keys = declared.filter((key) => KEY.test(key));
    expect(keys).to.include.members(['dsync.io/finalizer', 'dsync.io/setup-link-id', 'app.kubernetes.io/managed-by']);
    expect(metadata.OPERATOR_METADATA.map((k) => k.key)).to.have.members(keys);
  });
});
