/** The memory store's event log and delivery side: due set, leases, cursor, delivery logs, dead letters, replays. */
import type { DeadLetter, DeliveryLogRecord, DeliveryState, LoggedEvent } from '../../core/store-port.js';
import type { DirectoryData } from './directory.js';
import { extendLease, takeLease } from './leases.js';

export class MemoryDeliveryStore {
  /** Each directory's data, kept by the store (users-groups.ts) from its creation to its deletion. */
  protected readonly data = new Map<string, DirectoryData>();
  /** Directories with events to deliver, by when. */
  protected readonly due = new Map<string, number>();

  // Events ----------------------------------------------------------------------------------------------

  async readEvents(directoryId: string, afterSeq: string | null, limit: number): Promise<LoggedEvent[]> {
    return this.data.get(directoryId)?.events.read(afterSeq, limit) ?? [];
  }
  compareSeq(a: string, b: string): number {
    return a < b ? -1 : a > b ? 1 : 0;
  }
  isSeq(text: string): boolean {
    return /^\d{16}$/.test(text);
  }
  async lastEventSeq(directoryId: string): Promise<string | null> {
    return this.data.get(directoryId)?.events.last() ?? null;
  }
  async trimEvents(directoryId: string, uptoSeq: string, olderThan: number): Promise<void> {
    this.data.get(directoryId)?.events.trim(uptoSeq, olderThan);
  }

  // Delivery --------------------------------------------------------------------------------------------

  async markDue(directoryId: string, at: number): Promise<void> {
    const current = this.due.get(directoryId);
    if (current === undefined || at < current) this.due.set(directoryId, at);
  }
  async dueDirectories(now: number, limit: number): Promise<string[]> {
    return [...this.due]
      .filter(([, at]) => at <= now)
      .sort((a, b) => a[1] - b[1])
      .slice(0, limit)
      .map(([id]) => id);
  }
  async clearDue(directoryId: string): Promise<void> {
    this.due.delete(directoryId);
  }
  async acquireLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean> {
    return takeLease(this.data.get(directoryId), 'lease', owner, ttlMs);
  }
  async renewLease(directoryId: string, owner: string, ttlMs: number): Promise<boolean> {
    return extendLease(this.data.get(directoryId)?.lease, owner, ttlMs);
  }
  async releaseLease(directoryId: string, owner: string): Promise<void> {
    const d = this.data.get(directoryId);
    if (d?.lease?.owner === owner) d.lease = undefined;
  }
  async deliveryState(directoryId: string): Promise<DeliveryState> {
    return { ...(this.data.get(directoryId)?.delivery ?? { cursor: null, attempts: 0, pinned: null }) };
  }
  async saveDeliveryState(directoryId: string, owner: string, state: DeliveryState, ttlMs: number): Promise<boolean> {
    const d = this.data.get(directoryId);
    if (!d?.lease || d.lease.owner !== owner || d.lease.expires <= Date.now()) return false;
    d.delivery = { ...state };
    d.lease.expires = Date.now() + ttlMs;
    return true;
  }

  // Delivery logs and dead letters ----------------------------------------------------------------------

  async appendDeliveryLog(
    directoryId: string,
    record: Omit<DeliveryLogRecord, 'id'>,
    olderThan: number,
  ): Promise<string> {
    const d = this.data.get(directoryId);
    if (!d) return '';
    const id = `${directoryId}_${d.recordId()}`;
    d.deliveryLogs.push({ ...record, id, at: Date.now() });
    while (d.deliveryLogs.length > 0 && d.deliveryLogs[0]!.at < olderThan) d.deliveryLogs.shift();
    return id;
  }
  async listDeliveryLogs(directoryId: string, offset: number, limit: number): Promise<DeliveryLogRecord[]> {
    const logs = this.data.get(directoryId)?.deliveryLogs ?? [];
    return logs
      .slice()
      .reverse()
      .slice(offset, offset + limit)
      .map(({ at: _at, ...r }) => r);
  }
  async getDeliveryLog(directoryId: string, id: string): Promise<DeliveryLogRecord | null> {
    const found = this.data.get(directoryId)?.deliveryLogs.find((r) => r.id === id);
    if (!found) return null;
    const { at: _at, ...record } = found;
    return record;
  }
  async addDeadLetter(directoryId: string, letter: Omit<DeadLetter, 'id'>): Promise<string> {
    const d = this.data.get(directoryId);
    if (!d) return '';
    const id = `${directoryId}_${d.recordId()}`;
    d.deadLetters.push({ ...letter, id });
    return id;
  }
  async listDeadLetters(directoryId: string): Promise<DeadLetter[]> {
    return [...(this.data.get(directoryId)?.deadLetters ?? [])];
  }
  async removeDeadLetter(directoryId: string, id: string): Promise<boolean> {
    const list = this.data.get(directoryId)?.deadLetters;
    const i = list?.findIndex((l) => l.id === id) ?? -1;
    if (!list || i < 0) return false;
    list.splice(i, 1);
    return true;
  }
  async seqBefore(directoryId: string, time: number): Promise<string | null> {
    return this.data.get(directoryId)?.events.seqBefore(time) ?? null;
  }
  async requestReplay(directoryId: string, since: number): Promise<void> {
    const d = this.data.get(directoryId);
    if (d && (d.replayFrom === undefined || since < d.replayFrom)) d.replayFrom = since;
  }
  async takeReplayRequest(directoryId: string): Promise<number | null> {
    const d = this.data.get(directoryId);
    const since = d?.replayFrom ?? null;
    if (d) d.replayFrom = undefined;
    return since;
  }
}
