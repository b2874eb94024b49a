/** Rewrites the committed CRD YAML from src/operator/crd-schema.ts: `npm run crd`. */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { chartCrdTemplate, crdYaml } from '../../src/operator/crd-manifest.js';

export const CRD_FILE = fileURLToPath(new URL('../../crds/dsync.io_directoryconnections.yaml', import.meta.url));
export const CHART_CRD_FILE = fileURLToPath(
  new URL('../../charts/dsync/templates/crds/directoryconnections.yaml', import.meta.url),
);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(CRD_FILE, crdYaml());
  writeFileSync(CHART_CRD_FILE, chartCrdTemplate());
  process.stdout.write(`wrote ${CRD_FILE}\nwrote ${CHART_CRD_FILE}\n`);
}
