/** Stored records read with their body as JSON text, and parsed when a reader needs the body itself. */
import type { ScimBody, StoredJson, StoredResource } from '../core/model.js';

export const parsed = (r: StoredJson): StoredResource => {
  const resource: StoredResource = {
    id: r.id,
    body: JSON.parse(r.bodyJson) as ScimBody,
    created: r.created,
    lastModified: r.lastModified,
    version: r.version,
  };
  if (r.managerEmail !== undefined) resource.managerEmail = r.managerEmail;
  if (r.roles !== undefined) resource.roles = r.roles;
  if (r.customAttributes !== undefined) resource.customAttributes = r.customAttributes;
  return resource;
};
