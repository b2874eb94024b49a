/**
 * Lua of the store's leases (delivery's, the pull sync's, background runs' claims): taken, renewed and released
 * only by their holder, and the delivery state saved only under its lease. Small commands, each registered on the
 * client by name (connection.ts).
 */

/** Compare-and-delete / compare-and-set under a lease (KEYS[1] = lease key). */
const RELEASE_LEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const RENEW_LEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;
const SAVE_STATE = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[2], 'cursor', ARGV[2], 'attempts', ARGV[3], 'pinned', ARGV[4], 'retryAt', ARGV[6])
if ARGV[7] == '' then redis.call('HDEL', KEYS[2], 'ahead') else redis.call('HSET', KEYS[2], 'ahead', ARGV[7]) end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1`;

/** Claims KEYS[1] for ARGV[1] (expiring after ARGV[2] ms) unless held: answers the holder. */
const CLAIM = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then return ARGV[1] end
return redis.call('GET', KEYS[1])`;

export const LEASE_COMMANDS = {
  dsyncReleaseLease: { keys: 1, lua: RELEASE_LEASE },
  dsyncRenewLease: { keys: 1, lua: RENEW_LEASE },
  dsyncSaveState: { keys: 2, lua: SAVE_STATE },
  dsyncClaim: { keys: 1, lua: CLAIM },
};
