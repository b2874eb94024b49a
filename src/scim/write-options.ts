/** How a SCIM request calls the core writers: its If-Match as the precondition, its committed events collected. */
import type { WriteOptions } from '../core/commit.js';
import type { ScimContext } from './context.js';
import { checkIfMatch } from './render.js';

/** The write options of this request: If-Match as the precondition, committed events collected when asked. */
export function writeOptions(ctx: ScimContext): WriteOptions {
  const { ifMatch, committed } = ctx;
  return {
    ...(ifMatch && { precondition: (current) => checkIfMatch(ifMatch, current.version) }),
    ...(committed && {
      onCommitted: (events) => {
        for (const e of events) committed.push(e);
      },
    }),
  };
}
