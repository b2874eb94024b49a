/**
 * Every route group of the management API, in matching order (fixed paths before `/directory-sync/:id`). The
 * app mounts this list and the OpenAPI document is generated from it: a new group joins both by being added here.
 */
import { buildOpenApiDocument } from './openapi/document.js';
import { eventRoutes } from './routes/events.js';
import { googleRoutes } from './routes/google.js';
import { hrisRoutes } from './routes/hris.js';
import { managementRoutes } from './routes/directories.js';
import { microsoftRoutes } from './routes/microsoft.js';
import { setupApiRoutes } from './routes/setup-links-tokens-activity.js';
import type { ApiRoute } from './openapi/route-table.js';

export const API_ROUTES: ApiRoute[] = [
  ...eventRoutes,
  ...googleRoutes,
  ...microsoftRoutes,
  ...hrisRoutes,
  ...setupApiRoutes,
  ...managementRoutes,
];

let document: Record<string, unknown> | undefined;

/** The document, built once (it depends on nothing but the code). */
export function openApiDocument(): Record<string, unknown> {
  document ??= buildOpenApiDocument(API_ROUTES);
  return document;
}
