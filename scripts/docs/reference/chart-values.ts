/**
 * docs/reference/chart-values.md: the values of charts/dsync, each with the `# --` comment above it in
 * values.yaml, as helm-docs reads them (built into the cache by scripts/docs/helm-docs.sh). helm-docs writes the
 * table through chart-values.md.gotmpl; this module adds the page around it.
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { generatedBanner, page } from './markdown.js';

export const CHART_DIR = fileURLToPath(new URL('../../../charts/dsync', import.meta.url));
const TEMPLATE = fileURLToPath(new URL('./chart-values.md.gotmpl', import.meta.url));
const HELM_DOCS_SH = fileURLToPath(new URL('../helm-docs.sh', import.meta.url));

function helmDocs(): string {
  try {
    return execFileSync('bash', [HELM_DOCS_SH, 'bin'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
  } catch {
    throw new Error('helm-docs is not built: run `bash scripts/docs/helm-docs.sh build` (test/setup.sh does)');
  }
}

/** `chartDir`: the chart to document (charts/dsync by default; a test gives a changed copy). */
export function chartValuesPage(chartDir = CHART_DIR): string {
  const valuesTable = execFileSync(
    helmDocs(),
    [
      '--dry-run',
      '--log-level',
      'error',
      '--chart-search-root',
      chartDir,
      '--template-files',
      TEMPLATE,
      '--sort-values-order',
      'file',
    ],
    { encoding: 'utf8' },
  );
  return page(
    generatedBanner('the `# --` comments of `charts/dsync/values.yaml` (through helm-docs)'),
    '# Chart values',
    'The values of the `charts/dsync` Helm chart, in the order of `values.yaml`; `values.schema.json` checks their types. Maps whose keys are not listed one by one (resources, securityContext) are shown with their whole default.',
    valuesTable.trim(),
  );
}
