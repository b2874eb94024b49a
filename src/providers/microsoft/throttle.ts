/**
 * Per-tenant throttling: Graph throttles each tenant (and each app in it) on its own, and says for how long with
 * `Retry-After` on a 429 or 503. Once a tenant is told to wait, every request of this process to that tenant
 * waits until then (several directories may read one tenant), while other tenants go on at full speed.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export class TenantGate {
  private readonly until = new Map<string, number>();

  /** Resolves when requests to the tenant may go again. */
  async pass(tenantId: string): Promise<void> {
    for (;;) {
      const wait = (this.until.get(tenantId) ?? 0) - Date.now();
      if (wait <= 0) return;
      await sleep(wait);
    }
  }

  /** The tenant was throttled: nothing goes to it for `ms`. */
  block(tenantId: string, ms: number): void {
    const at = Date.now() + ms;
    if (at > (this.until.get(tenantId) ?? 0)) this.until.set(tenantId, at);
  }
}
