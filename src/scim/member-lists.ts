/**
 * A request may carry 100,000 member values. Before the synchronous steps meet them (resource normalisation,
 * the PATCH engine), its member lists are normalised in time slices with event-loop turns in between; those
 * steps then take the normalised lists as they are (normalize.ts). A list that fails to normalise is left as
 * sent, so the synchronous step reports it exactly as before (naming the PATCH operation, for one).
 */
import { isMembers, isMembersKey, normalizeMembersSliced } from './normalize.js';
import { parsePatchPath } from './path.js';
import { type JsonObject, findKey, isObject } from './values.js';

async function sliced(value: unknown): Promise<unknown> {
  if (!Array.isArray(value)) return value;
  return normalizeMembersSliced(value).catch(() => value);
}

/** A POST or PUT body of /Groups with its `members` normalised (a shallow copy; the input is not changed). */
export async function withSlicedMembers(body: unknown): Promise<unknown> {
  if (!isObject(body)) return body;
  const out: JsonObject = { ...body };
  for (const key of Object.keys(out)) if (isMembersKey('Group', key)) out[key] = await sliced(out[key]);
  return out;
}

/** Whether a PATCH operation's value is a member list (path `members`, no filter or sub-attribute). */
function isMemberListPath(path: unknown): boolean {
  if (typeof path !== 'string') return false;
  try {
    const parsed = parsePatchPath(path, 'Group');
    return (
      parsed.kind === 'attribute' && !parsed.filter && parsed.attr.sub === undefined && isMembers('Group', parsed.attr)
    );
  } catch {
    return false; // the PATCH engine reports it
  }
}

/** A PatchOp body (or bare Operations array) with the member lists of its operations normalised (a copy). */
export async function withSlicedMemberOperations(body: unknown): Promise<unknown> {
  const key = isObject(body) ? findKey(body, 'Operations') : undefined;
  const operations = Array.isArray(body) ? body : key !== undefined ? (body as JsonObject)[key] : undefined;
  if (!Array.isArray(operations)) return body;
  const out: unknown[] = [];
  for (const op of operations) {
    const valueKey = isObject(op) ? findKey(op, 'value') : undefined;
    const pathKey = isObject(op) ? findKey(op, 'path') : undefined;
    if (valueKey === undefined || pathKey === undefined || !isMemberListPath((op as JsonObject)[pathKey])) {
      out.push(op);
      continue;
    }
    out.push({ ...(op as JsonObject), [valueKey]: await sliced((op as JsonObject)[valueKey]) });
  }
  return Array.isArray(body) ? out : { ...(body as JsonObject), [key!]: out };
}
