/**
 * Every route group of the management API, in matching order (fixed paths before `/directory-sync/:id`). The
 * app mounts this list and the OpenAPI document is generated from it: a new group joins both by being added here.
 */
import { buildOpenApiDocument } from './openapi.js';
import { eventRoutes } from './event-routes.js';
import { googleRoutes } from './google-routes.js';
import { hrisRoutes } from './hris-routes.js';
import { managementRoutes } from './management-routes.js';
import { microsoftRoutes } from './microsoft-routes.js';
import { setupApiRoutes } from './setup-api-routes.js';
import type { ApiRoute } from './route-table.js';

export const API_ROUTES: ApiRoute[] = [...eventRoutes, ...googleRoutes, ...microsoftRoutes, ...hrisRoutes, ...setupApiRoutes, ...managementRoutes];

let document: Record<string, unknown> | undefined;

/** The document, built once (it depends on nothing but the code). */
export function openApiDocument(): Record<string, unknown> {
  document ??= buildOpenApiDocument(API_ROUTES);
  return document;
}
