/**
 * Builds the DirectoryConnection CustomResourceDefinition from the zod schemas in crd-schema.ts. The committed
 * YAML (crds/, and the chart's template) is this output; `npm run crd` (scripts/generate/crd.ts) rewrites it
 * and a unit test fails when it is stale.
 */
import { z } from 'zod';
import { stringify } from 'yaml';
import { GROUP, KIND, PLURAL, VERSION, directoryConnectionSpec, directoryConnectionStatus } from './crd-schema.js';

type JsonSchema = Record<string, unknown>;

/** Longest resource name whose `<name>-scim` Secret name still fits the 253-character limit. */
export const MAX_NAME_LENGTH = 248;

const SAFE_INTEGER_BOUNDS = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];

/** Turns zod's JSON Schema into a structural OpenAPI v3 schema that kube-apiserver accepts. */
function toStructural(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, {
    io: 'input', // fields with a default are optional for the user
    target: 'openapi-3.0',
    override: ({ jsonSchema: node }) => {
      const s = node as JsonSchema;
      // Structural schemas forbid `additionalProperties` beside `properties`; unknown fields are pruned or,
      // with kubectl's default strict field validation, rejected.
      if (s['properties']) delete s['additionalProperties'];
      // JavaScript escapes `/` in RegExp sources; RE2 does not need it, and users read these patterns in errors.
      if (typeof s['pattern'] === 'string') s['pattern'] = s['pattern'].replaceAll('\\/', '/');
      if (s['type'] === 'integer') {
        if (SAFE_INTEGER_BOUNDS.includes(s['minimum'] as number)) delete s['minimum'];
        if (SAFE_INTEGER_BOUNDS.includes(s['maximum'] as number)) delete s['maximum'];
        s['format'] = 'int64';
      }
    },
  }) as JsonSchema;
}

function openApiSchema(): JsonSchema {
  const { $schema: _drop, ...spec } = toStructural(directoryConnectionSpec);
  const { $schema: _drop2, ...status } = toStructural(directoryConnectionStatus);
  return {
    type: 'object',
    description: 'A directory of one tenant and product, synced over SCIM 2.0 (or pulled from Google Workspace).',
    required: ['spec'],
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      // The only metadata a CRD may constrain. A schema rule rather than a root CEL rule: a root rule is
      // skipped on any schema error and kubectl would then print "some validation rules were not checked".
      metadata: {
        type: 'object',
        properties: {
          name: {
            type: 'string',
            maxLength: MAX_NAME_LENGTH,
            description: `At most ${MAX_NAME_LENGTH} characters: the operator creates the Secret <name>-scim`,
          },
        },
      },
      spec,
      // Defaulted (the API server applies it when reading an object without a status): before the operator's
      // first status write, observedGeneration 0 < generation makes kstatus say InProgress, not Current.
      status: { ...status, default: { observedGeneration: 0 } },
    },
  };
}

const readyJsonPath = '.status.conditions[?(@.type=="Ready")]';

export function directoryConnectionCrd(): JsonSchema {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${PLURAL}.${GROUP}` },
    spec: {
      group: GROUP,
      names: {
        kind: KIND,
        listKind: `${KIND}List`,
        plural: PLURAL,
        singular: KIND.toLowerCase(),
        shortNames: ['dconn'],
        categories: ['dsync'],
      },
      scope: 'Namespaced',
      versions: [
        {
          name: VERSION,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: [
            { name: 'Ready', type: 'string', jsonPath: `${readyJsonPath}.status` },
            { name: 'Reason', type: 'string', jsonPath: `${readyJsonPath}.reason`, priority: 1 },
            { name: 'Type', type: 'string', jsonPath: '.spec.type' },
            { name: 'Tenant', type: 'string', jsonPath: '.spec.tenant' },
            { name: 'Product', type: 'string', jsonPath: '.spec.product' },
            { name: 'Endpoint', type: 'string', jsonPath: '.status.scimEndpoint' },
            { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          ],
          schema: { openAPIV3Schema: openApiSchema() },
        },
      ],
    },
  };
}

const HEADER = '# Generated from src/operator/crd-schema.ts by `npm run crd`; do not edit.\n';

/** crds/dsync.io_directoryconnections.yaml */
export function crdYaml(): string {
  return `${HEADER}${stringify(directoryConnectionCrd(), { lineWidth: 0 })}`;
}

/**
 * charts/dsync/templates/crds/directoryconnections.yaml: the same CRD, rendered only with `crds.enabled`, kept on
 * `helm uninstall` with `crds.keep` (deleting a CRD deletes every DirectoryConnection).
 */
export function chartCrdTemplate(): string {
  const body = stringify(directoryConnectionCrd(), { lineWidth: 0 }).replace(
    `metadata:\n  name: ${PLURAL}.${GROUP}\n`,
    [
      'metadata:',
      `  name: ${PLURAL}.${GROUP}`,
      '  labels:',
      '    {{- include "dsync.labels" . | nindent 4 }}',
      '  {{- if .Values.crds.keep }}',
      '  annotations:',
      '    helm.sh/resource-policy: keep',
      '  {{- end }}',
      '',
    ].join('\n'),
  );
  return `${HEADER}{{- if .Values.crds.enabled }}\n${body}{{- end }}\n`;
}
