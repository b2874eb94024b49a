/**
 * A change of a DirectoryConnection's spec.roleMapping or spec.attributeMapping re-evaluates the directory's
 * users (their roles and custom attributes), as a PATCH of the API does, in the background (core/reevaluations.ts):
 * a directory of 200,000 users takes tens of seconds, past the reconcile's store deadline, and the reconcile must
 * not wait for it; the directory's `reevaluation` status says how far it got. The operator delivers nothing
 * itself: a due mark (at most one in flight per directory, and one at the end) lets the serve replicas pick the
 * events up at their next poll. A pass cut short (the operator stopping) is run again by the next serve process
 * to start.
 */
import type { Directory } from '../core/model.js';
import { Reevaluations } from '../core/reevaluations.js';
import type { DeliveryStore, DirectoryStore } from '../core/store-port.js';
import { UserWriter, type UserWriteStore } from '../core/users.js';
import type { Logger } from '../logger.js';

export type MappingRefreshStore = UserWriteStore &
  Pick<DeliveryStore, 'markDue'> &
  Pick<DirectoryStore, 'getDirectory' | 'updateDirectory' | 'listDirectoryIds'>;

export function backgroundMappingRefresh(
  store: MappingRefreshStore,
  logger: Logger,
): (directory: Directory) => Promise<void> {
  const marking = new Set<string>();
  const markDue = (directoryId: string): Promise<void> => {
    if (marking.has(directoryId)) return Promise.resolve();
    marking.add(directoryId);
    return store
      .markDue(directoryId, Date.now())
      .catch((err: unknown) =>
        logger.warn({ err, directoryId }, 'could not mark the directory due after a mapping change'),
      )
      .finally(() => marking.delete(directoryId));
  };
  const users = new UserWriter({ store, committed: (directoryId) => void markDue(directoryId) });
  const reevaluations = new Reevaluations({
    store,
    reevaluateAll: (directory, progress) => users.reevaluateAll(directory, progress),
    onError: (directoryId, err) =>
      logger.error({ err, directoryId }, 'user re-evaluation failed; the next serve process to start runs it again'),
    onDone: (directoryId, status) => {
      void store.markDue(directoryId, Date.now()).then(
        () => logger.info({ directoryId, ...status }, 'users re-evaluated'),
        (err: unknown) => logger.warn({ err, directoryId }, 'could not mark the directory due after a mapping change'),
      );
    },
  });
  return async (directory) => {
    logger.info(
      { directoryId: directory.id },
      'role or attribute mapping changed: re-evaluating the users in the background',
    );
    void reevaluations.run(directory);
  };
}
