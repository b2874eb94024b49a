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

/**
 * The event of an entry of a directory's log (`ev`): its one field `e`, or for a membership event its script built
 * (redis-group-scripts.ts' builtEvents) the JSON before `raw`, the user's record (its body less the closing brace
 * is the `raw`) and the JSON after, fields `e`, `r` and `t`.
 */
export function entryEventJson(fields: string[]): string {
  if (fields.length === 2) return fields[1]!;
  const rec = fields[3]!;
  return fields[1]! + rec.slice(rec.indexOf(BODY_SEP) + 1, -1) + fields[5]!;
}
