/**
 * docs/reference/operator-metadata.md from the table of src/operator/metadata-keys.ts: the annotations a user
 * sets on a DirectoryConnection, then the labels, annotations and finalizers the operator sets.
 */
import { OPERATOR_METADATA, type MetadataKey } from '../../../src/operator/metadata-keys.js';
import { code, generatedBanner, page, table } from './markdown.js';

const rows = (keys: readonly MetadataKey[]) =>
  keys.map((k) => [code(k.value === undefined ? k.key : `${k.key}: ${k.value}`), k.kind, k.on, k.meaning]);

export function operatorMetadataPage(keys: readonly MetadataKey[] = OPERATOR_METADATA): string {
  const headers = ['Key', 'Kind', 'On', 'Meaning'];
  return page(
    generatedBanner('the table of `src/operator/metadata-keys.ts`'),
    '# Labels, annotations and finalizers',
    'The metadata keys `dsync operator` reads and writes on DirectoryConnections and on the Secrets it makes for them (`<name>-scim`, `<name>-setup`). The operator reads no other label or annotation, and sets none on the resources you own but the finalizer below. The [operator page](../operator.md) shows them at work.',
    '## What you set',
    table(headers, rows(keys.filter((k) => k.setBy === 'you'))),
    '## What the operator sets',
    'Leave these as they are: the operator relies on them.',
    table(headers, rows(keys.filter((k) => k.setBy === 'the operator'))),
  );
}
