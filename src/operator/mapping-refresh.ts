/**
 * A change of a DirectoryConnection's spec.roleMapping or spec.attributeMapping re-evaluates the directory's
 * users (their roles and custom attributes), as a PATCH of the API does, but in the background: a directory of
 * 200,000 users takes tens of seconds, past the reconcile's store deadline, and the reconcile must not wait for
 * it. The operator delivers nothing itself: a due mark (at most one in flight per directory, and one at the end)
 * lets the serve replicas pick the events up at their next poll. A pass cut short (the operator stopping) leaves
 * the rest to each user's next write.
 */
import type { Directory } from '../core/model.js';
import type { DeliveryStore } from '../core/store-port.js';
import { UserWriter, type UserWriteStore } from '../core/users.js';
import type { Logger } from '../logger.js';

export type MappingRefreshStore = UserWriteStore & Pick<DeliveryStore, 'markDue'>;

export function backgroundMappingRefresh(store: MappingRefreshStore, logger: Logger): (directory: Directory) => Promise<void> {
  const marking = new Set<string>();
  const markDue = (directoryId: string): Promise<void> => {
    if (marking.has(directoryId)) return Promise.resolve();
    marking.add(directoryId);
    return store
      .markDue(directoryId, Date.now())
      .catch((err: unknown) => logger.warn({ err, directoryId }, 'could not mark the directory due after a mapping change'))
      .finally(() => marking.delete(directoryId));
  };
  const users = new UserWriter({ store, committed: (directoryId) => void markDue(directoryId) });
  return async (directory) => {
    const started = Date.now();
    logger.info({ directoryId: directory.id }, 'role or attribute mapping changed: re-evaluating the users in the background');
    void users
      .reevaluateAll(directory)
      .then(() => store.markDue(directory.id, Date.now()))
      .then(
        () => logger.info({ directoryId: directory.id, ms: Date.now() - started }, 'users re-evaluated'),
        (err: unknown) => logger.error({ err, directoryId: directory.id }, 'user re-evaluation failed; users catch up at their next write'),
      );
  };
}
