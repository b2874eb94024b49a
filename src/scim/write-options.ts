/**
 * How a SCIM request calls the core: its If-Match as the precondition, its committed events collected, and the
 * resource its path names as read with its authentication (one round trip fewer).
 */
import type { WriteOptions } from '../core/commit.js';
import type { StoredResource } from '../core/model.js';
import type { ResourceRef } from '../core/store-port.js';
import type { ScimContext } from './context.js';
import { checkIfMatch } from './render.js';

/** `ref` as the request read it with its authentication; undefined when it did not. */
function readAhead(ctx: ScimContext, ref: ResourceRef): StoredResource | null | undefined {
  const { named } = ctx;
  return named && named.kind === ref.kind && named.id === ref.id ? named.resource : undefined;
}

/** The resource `ref`: as read with the request's authentication, or by `read`. */
export async function readNamed(
  ctx: ScimContext,
  ref: ResourceRef,
  read: () => Promise<StoredResource | null>,
): Promise<StoredResource | null> {
  const ahead = readAhead(ctx, ref);
  return ahead === undefined ? read() : ahead;
}

/**
 * The write options of this request: If-Match as the precondition, committed events collected when asked, and
 * for a write to `ref` the resource as already read.
 */
export function writeOptions(ctx: ScimContext, ref?: ResourceRef): WriteOptions {
  const { ifMatch, committed } = ctx;
  const ahead = ref && readAhead(ctx, ref);
  // Assigned, not spread: built for every write (see context() in handler.ts).
  const options: WriteOptions = {};
  if (ifMatch) options.precondition = (current) => checkIfMatch(ifMatch, current.version);
  if (committed) {
    options.onCommitted = (events) => {
      for (const e of events) committed.push(e);
    };
  }
  if (ahead !== undefined) options.current = ahead;
  return options;
}
