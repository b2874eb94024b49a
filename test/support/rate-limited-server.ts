/**
 * A separate process serving dsync with inflight locks of a short expiry (LOCK_TTL_MS) on REDIS_URL, so a test
 * can kill it while it holds a lock and see the lock expire. Prints `listening <url>` once it serves.
 */
import { RedisStore } from '../../src/store/redis/users-groups.js';
import { startLimited } from './rate-limits.js';

const svc = await startLimited(new RedisStore(process.env.REDIS_URL!), {
  plan: 'enterprise',
  lockTtlMs: Number(process.env.LOCK_TTL_MS),
});
process.stdout.write(`listening ${svc.url}\n`);
