/**
 * docs/reference/crd.md from the DirectoryConnection CRD as src/operator/crd-manifest.ts builds it (the same
 * object as crds/): every field of spec and status with its type, bounds and the API server's rules, and the
 * columns `kubectl get` prints.
 */
import { directoryConnectionCrd } from '../../../src/operator/crd-manifest.js';
import { fieldRows, type JsonSchema } from './json-schema.js';
import { code, generatedBanner, page, table } from './markdown.js';

interface CrdVersion {
  name: string;
  additionalPrinterColumns: Array<{ name: string; jsonPath: string; priority?: number }>;
  schema: { openAPIV3Schema: JsonSchema };
}
export interface Crd {
  spec: {
    group: string;
    names: { kind: string; plural: string; shortNames: string[] };
    scope: string;
    versions: CrdVersion[];
  };
}

function versionSection(crd: Crd, version: CrdVersion): string[] {
  const root = version.schema.openAPIV3Schema;
  const fields = (part: 'spec' | 'status') => {
    const schema = root.properties![part]!;
    const rows = fieldRows(schema).map((f) => [
      code(`${part}.${f.path}`),
      f.type,
      f.required ? 'yes' : '',
      f.description,
    ]);
    return [
      `### ${part}`,
      schema.description ? `${schema.description}.` : '',
      table(['Field', 'Type', 'Required', 'Description'], rows),
    ];
  };
  const rules = (
    (root.properties!['spec']!['x-kubernetes-validations'] as Array<{ rule: string; message: string }> | undefined) ??
    []
  ).map((r) => [code(r.rule), r.message]);
  const columns = version.additionalPrinterColumns.map((c) => [
    c.name,
    code(c.jsonPath),
    c.priority ? '`-o wide`' : 'always',
  ]);
  return [
    `## ${crd.spec.group}/${version.name}`,
    ...fields('spec'),
    rules.length > 0
      ? `Rules across spec fields, checked by the API server at apply time:\n\n${table(['Rule (CEL)', 'Message'], rules)}`
      : '',
    ...fields('status'),
    `### kubectl get columns\n\n${table(['Column', 'JSONPath', 'Shown'], columns)}`,
  ];
}

export function crdPage(crd: Crd = directoryConnectionCrd() as unknown as Crd): string {
  const { group, names, scope } = crd.spec;
  return page(
    generatedBanner('the DirectoryConnection schema in `src/operator/crd-schema.ts` (the CRD in `crds/`)'),
    `# ${names.kind} (CRD)`,
    `\`${names.plural}.${group}\`, ${scope.toLowerCase()}, short name ${names.shortNames.map(code).join(', ')}. One resource per customer connection: the operator turns it into a stored directory and a Secret \`<name>-scim\` holding the SCIM endpoint and bearer token for the customer's identity provider. Invalid specs are refused by the API server with kubectl's usual message.`,
    ...crd.spec.versions.flatMap((v) => versionSection(crd, v)),
  );
}
