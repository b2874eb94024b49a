/**
 * The shape of a pull type's reconcile step: a value read from the Secret the spec names (a Google service
 * account, HRIS credentials), checked, handed to the store when it changed, then the directory's last sync status
 * read back for its condition. A value of the wrong shape is InvalidSpec; a store that fails, a backoff.
 */
import { ValidationError } from '../core/errors.js';
import { REASONS } from './conditions.js';
import { NotLeaderError } from './errors.js';
import { invalidSpec, type Halt, type ReconcileState } from './reconcile-state.js';

export interface SecretStepDeps {
  /** The value of a Secret key, or why it could not be read. */
  secretValue: (ref: { name: string; key: string }, field: string) => Promise<string | Halt>;
  /** One bounded store call. */
  store: <T>(call: string, work: () => Promise<T>) => Promise<T>;
  fence?: () => void;
}

export interface SecretStep<V, S> {
  /** The store call's name (`google`, `hris`). */
  call: string;
  /** The Secret key the spec names (none: nothing to read), and the field naming it in messages. */
  ref: { name: string; key: string } | undefined;
  field: string;
  /** The value from the Secret's (undefined without a ref); throws ValidationError when it is not one. */
  parse(value: string | undefined): V;
  /** Stores the value when it changed; true when it wrote. */
  apply(id: string, value: V): Promise<boolean>;
  status(id: string): Promise<S>;
  /** The log line when it wrote. */
  changed: string;
}

/** Runs the step: the sync status on success, or why the reconcile halts. */
export async function secretToStore<V, S>(
  state: ReconcileState,
  deps: SecretStepDeps,
  step: SecretStep<V, S>,
): Promise<{ status: S } | Halt> {
  const read = step.ref ? await deps.secretValue(step.ref, step.field) : undefined;
  if (read !== undefined && typeof read !== 'string') return read;
  let value: V;
  try {
    value = step.parse(read);
  } catch (err) {
    if (err instanceof ValidationError) return invalidSpec(`${err.message} (value of ${step.field})`);
    throw err;
  }
  const id = state.cr.metadata.uid!;
  try {
    deps.fence?.();
    if (await deps.store(step.call, () => step.apply(id, value))) state.log.info(step.changed);
    return { status: await deps.store(step.call, () => step.status(id)) };
  } catch (err) {
    if (err instanceof NotLeaderError) throw err;
    return {
      reason: REASONS.StoreUnavailable,
      message: 'the directory store could not be reached',
      retry: 'backoff',
      cause: err,
    };
  }
}
