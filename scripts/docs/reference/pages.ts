/**
 * The generated reference pages: where each is committed and what writes it (the writer and the freshness test share
 * this list).
 */
import { fileURLToPath } from 'node:url';
import { chartValuesPage } from './chart-values.js';
import { configurationPage } from './configuration.js';
import { cliPage } from './cli.js';
import { crdPage } from './crd.js';
import { errorsPage } from './errors.js';
import { eventsPage } from './events.js';
import { httpApiPage } from './http-api.js';
import { metricsPage } from './metrics.js';
import { operatorMetadataPage } from './operator-metadata.js';

export const REFERENCE_DIR = fileURLToPath(new URL('../../../docs/reference/', import.meta.url));

export const REFERENCE_PAGES: ReadonlyArray<{ file: string; render: () => string }> = [
  { file: 'configuration.md', render: configurationPage },
  { file: 'http-api.md', render: httpApiPage },
  { file: 'events.md', render: eventsPage },
  { file: 'crd.md', render: crdPage },
  { file: 'chart-values.md', render: chartValuesPage },
  { file: 'metrics.md', render: metricsPage },
  { file: 'errors.md', render: errorsPage },
  { file: 'cli.md', render: cliPage },
  { file: 'operator-metadata.md', render: operatorMetadataPage },
];
