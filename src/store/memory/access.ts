/** The memory store's access side (AccessStore): SCIM tokens, setup links and the activity record of each directory. */
import type { ActivityEntry, AccessStore, StoredScimToken, StoredSetupLink } from '../../core/store-port.js';
import { MemoryPullSyncStore } from './pull-sync.js';

export class MemoryAccessStore extends MemoryPullSyncStore implements Omit<AccessStore, 'getDirectoryAccess'> {
  /** Setup links by hash, across directories: JSON and how long it is kept. */
  private readonly linkIndex = new Map<string, { json: string; keepUntil: number }>();

  /** The directory's tokens as read (the JSON is the revision). */
  protected tokensOf(directoryId: string): { tokens: StoredScimToken[]; tokensRevision: string } {
    const json = this.live(directoryId)?.scimTokens ?? '';
    return { tokens: json ? (JSON.parse(json) as StoredScimToken[]) : [], tokensRevision: json };
  }

  async putScimTokens(
    directoryId: string,
    revision: string,
    tokens: StoredScimToken[],
  ): Promise<'ok' | 'stale' | 'missing'> {
    const d = this.live(directoryId);
    if (!d) return 'missing';
    if (d.scimTokens !== revision) return 'stale';
    d.scimTokens = tokens.length > 0 ? JSON.stringify(tokens) : '';
    return 'ok';
  }
  async scimTokenUsage(directoryId: string): Promise<Record<string, number>> {
    return Object.fromEntries(this.live(directoryId)?.tokenUsage ?? []);
  }
  async recordScimTokenUsage(directoryId: string, usage: Record<string, number>, forget: string[] = []): Promise<void> {
    const d = this.live(directoryId);
    if (!d) return;
    for (const [id, at] of Object.entries(usage)) d.tokenUsage.set(id, Math.max(at, d.tokenUsage.get(id) ?? 0));
    for (const id of forget) d.tokenUsage.delete(id);
  }

  async putSetupLink(
    link: StoredSetupLink,
    keepUntil: number,
    drop: StoredSetupLink[] = [],
    maxOpen?: number,
  ): Promise<'saved' | 'missing' | 'full'> {
    const d = this.live(link.directory_id);
    if (!d) return 'missing';
    for (const old of drop) {
      this.linkIndex.delete(old.hash);
      d.setupLinks.delete(old.id);
    }
    if (maxOpen !== undefined) {
      const now = new Date().toISOString();
      const open = [...d.setupLinks.values()]
        .map((j) => JSON.parse(j) as StoredSetupLink)
        .filter((l) => !l.revoked_at && l.expires_at > now);
      if (open.length >= maxOpen) return 'full';
    }
    const json = JSON.stringify(link);
    d.setupLinks.set(link.id, json);
    this.linkIndex.set(link.hash, { json, keepUntil });
    return 'saved';
  }
  async findSetupLink(hash: string): Promise<StoredSetupLink | null> {
    const entry = this.linkIndex.get(hash);
    if (!entry || entry.keepUntil <= Date.now()) return null;
    return JSON.parse(entry.json) as StoredSetupLink;
  }
  async listSetupLinks(directoryId: string): Promise<StoredSetupLink[]> {
    return [...(this.live(directoryId)?.setupLinks.values() ?? [])].map((json) => JSON.parse(json) as StoredSetupLink);
  }
  /** The cascade delete of a directory forgets its links' hashes too. */
  protected dropSetupLinks(directoryId: string): void {
    for (const link of this.live(directoryId)?.setupLinks.values() ?? [])
      this.linkIndex.delete((JSON.parse(link) as StoredSetupLink).hash);
  }

  async appendActivity(
    directoryId: string,
    entries: ActivityEntry[],
    keep: number,
    ttlMs: number,
    lastRequestAt: string | null,
  ): Promise<void> {
    const d = this.live(directoryId);
    if (!d || entries.length === 0) return;
    const now = Date.now();
    const current = d.activityExpires > now ? d.activity : [];
    d.activity = [...entries.map((e) => ({ ...e })).reverse(), ...current].slice(0, keep);
    d.activityExpires = now + ttlMs;
    if (lastRequestAt !== null && (d.lastRequestAt === null || lastRequestAt > d.lastRequestAt))
      d.lastRequestAt = lastRequestAt;
  }
  async readActivity(
    directoryId: string,
    limit: number,
  ): Promise<{ last_request_at: string | null; recent: ActivityEntry[] }> {
    const d = this.live(directoryId);
    if (!d) return { last_request_at: null, recent: [] };
    const recent = d.activityExpires > Date.now() ? d.activity.slice(0, limit).map((e) => ({ ...e })) : [];
    return { last_request_at: d.lastRequestAt, recent };
  }
}
