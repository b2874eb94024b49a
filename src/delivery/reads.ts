/**
 * The reads behind the Events API and the delivery routes: a directory's event log (polled by cursor), its
 * dead letters and its delivery attempt logs. The HTTP layer calls this, never the store.
 */
import { NotFoundError, ValidationError } from '../core/errors.js';
import type { DirectorySyncEvent } from '../core/model.js';
import type { PageRequest } from '../core/queries.js';
import type { DeadLetter, DeliveryLogRecord, DeliveryRecordStore, EventLogStore } from '../core/store-port.js';

export interface EventPage {
  /** The events as committed (the webhook payloads), oldest first. */
  events: DirectorySyncEvent[];
  /** Pass as `after` to read on; the same cursor when nothing new was committed. */
  next_cursor: string | null;
}

export class DeliveryReads {
  constructor(private readonly store: EventLogStore & DeliveryRecordStore) {}

  async events(directoryId: string, after: string | null, limit: number): Promise<EventPage> {
    if (after !== null && !this.store.isSeq(after))
      throw new ValidationError('after is not a cursor returned by this API', 'after');
    const logged = await this.store.readEvents(directoryId, after, limit);
    return {
      events: logged.map((e) => JSON.parse(e.json) as DirectorySyncEvent),
      next_cursor: logged.at(-1)?.seq ?? after,
    };
  }

  deadLetters(directoryId: string): Promise<DeadLetter[]> {
    return this.store.listDeadLetters(directoryId);
  }

  attemptLogs(directoryId: string, page: PageRequest): Promise<DeliveryLogRecord[]> {
    return this.store.listDeliveryLogs(directoryId, page.offset, page.limit);
  }

  /** A log id is `<directoryId>_<n>`: the directory it belongs to is read from it. */
  async attemptLog(logId: string): Promise<DeliveryLogRecord> {
    const directoryId = logId.slice(0, Math.max(0, logId.lastIndexOf('_')));
    const record = directoryId ? await this.store.getDeliveryLog(directoryId, logId) : null;
    if (!record) throw new NotFoundError(`Delivery log ${logId} not found`);
    return record;
  }
}
