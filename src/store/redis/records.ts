/** Records as the Redis scripts store them (lua/prelude.ts: a header, then the JSON body), decoded. */
import type { CustomAttributes, StoredJson, StoredResource } from '../../core/model.js';
import { BODY_SEP, FIELD_SEP } from './lua/prelude.js';
import { parsed } from '../parse-stored.js';

/** The header's fields of a user's manager email, roles and custom attributes (lua/prelude.ts), 0-based. */
const MANAGER_EMAIL = 13;
const ROLES = 14;
const CUSTOM = 15;

export function decodeJson(id: string, rec: string): StoredJson {
  const split = rec.indexOf(BODY_SEP);
  const header = rec.slice(0, split).split(FIELD_SEP);
  const json: StoredJson = {
    id,
    bodyJson: rec.slice(split + 1),
    version: Number(header[0]),
    created: Number(header[1]),
    lastModified: Number(header[2]),
  };
  const managerEmail = header[MANAGER_EMAIL];
  if (managerEmail) json.managerEmail = managerEmail;
  const roles = header[ROLES];
  // '[]' and '' (none, or a record an older dsync wrote) both mean no role.
  if (roles && roles !== '[]') json.roles = JSON.parse(roles) as string[];
  const custom = header[CUSTOM];
  if (custom && custom !== '{}') json.customAttributes = JSON.parse(custom) as CustomAttributes;
  return json;
}

export const decode = (id: string, rec: string): StoredResource => parsed(decodeJson(id, rec));

/**
 * The event of an entry of a directory's log (`ev`). This release writes one field, `e`, the event's JSON. It
 * also reads the shape a later release's membership script may write (docs/design/performance.md: the event as
 * three stream fields), so that a rolling upgrade to it never has a process here deliver part of an event:
 * fields `e`, `r` and `t`, the JSON before `raw`, the user's record as stored (its body less the closing brace is
 * the `raw`) and the JSON after it.
 */
export function entryEventJson(fields: string[]): string {
  if (fields.length === 2 && fields[0] === 'e') return fields[1]!;
  if (fields.length === 6 && fields[0] === 'e' && fields[2] === 'r' && fields[4] === 't') {
    const rec = fields[3]!;
    return fields[1]! + rec.slice(rec.indexOf(BODY_SEP) + 1, -1) + fields[5]!;
  }
  // Never deliver a guess: the directory's delivery stops on this entry and says why.
  const names = fields.filter((_, i) => i % 2 === 0).join(', ');
  throw new Error(`an event log entry of unknown shape (fields: ${names}), written by a newer dsync?`);
}
