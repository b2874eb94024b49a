/** Records as the Redis scripts store them (redis-scripts.ts: a header, then the JSON body), decoded. */
import type { StoredJson, StoredResource } from '../core/model.js';
import { BODY_SEP, FIELD_SEP } from './redis-scripts.js';
import { parsed } from './stored-json.js';

export function decodeJson(id: string, rec: string): StoredJson {
  const split = rec.indexOf(BODY_SEP);
  const [version, created, modified] = rec.slice(0, split).split(FIELD_SEP);
  return { id, bodyJson: rec.slice(split + 1), version: Number(version), created: Number(created), lastModified: Number(modified) };
}

export const decode = (id: string, rec: string): StoredResource => parsed(decodeJson(id, rec));
