/**
 * Lua of a directory's access records (access.ts): its SCIM token list by compare-and-set, when each token was
 * last used, its setup links (at most so many working), its activity record; each only while the directory's
 * record is there. Small commands, each registered on the client by name.
 */

const PUT_TOKENS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 'missing' end
if (redis.call('GET', KEYS[2]) or '') ~= ARGV[1] then return 'stale' end
if ARGV[2] == '' then redis.call('DEL', KEYS[2]) else redis.call('SET', KEYS[2], ARGV[2]) end
return 'ok'`;

/** ARGV: n, then n (id, at) pairs (a later time wins), then ids to forget. */
const RECORD_USAGE = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local n = tonumber(ARGV[1])
for i = 0, n - 1 do
  local id, at = ARGV[2 + i * 2], ARGV[3 + i * 2]
  if tonumber(at) > tonumber(redis.call('HGET', KEYS[2], id) or '0') then redis.call('HSET', KEYS[2], id, at) end
end
for i = 2 + n * 2, #ARGV do redis.call('HDEL', KEYS[2], ARGV[i]) end
return 1`;

/** ARGV: id, json, the most working links ('' for no bound), now (ISO), then ids to forget. */
const PUT_LINK = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
for i = 5, #ARGV do redis.call('HDEL', KEYS[2], ARGV[i]) end
if ARGV[3] ~= '' then
  local open = 0
  for _, json in ipairs(redis.call('HVALS', KEYS[2])) do
    local l = cjson.decode(json)
    if (l.revoked_at == nil or l.revoked_at == cjson.null) and l.expires_at > ARGV[4] then open = open + 1 end
  end
  if open >= tonumber(ARGV[3]) then return 2 end
end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1`;

/** ARGV: keep, ttl ms, the newest authenticated entry's time ('' for none), then the entries oldest first. */
const APPEND_ACTIVITY = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
for i = 4, #ARGV do redis.call('LPUSH', KEYS[2], ARGV[i]) end
redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[1]) - 1)
redis.call('PEXPIRE', KEYS[2], ARGV[2])
if ARGV[3] ~= '' then
  local last = redis.call('GET', KEYS[3])
  if not last or ARGV[3] > last then redis.call('SET', KEYS[3], ARGV[3]) end
end
return 1`;

export const ACCESS_COMMANDS = {
  dsyncPutTokens: { keys: 2, lua: PUT_TOKENS },
  dsyncRecordUsage: { keys: 2, lua: RECORD_USAGE },
  dsyncPutLink: { keys: 2, lua: PUT_LINK },
  dsyncAppendActivity: { keys: 3, lua: APPEND_ACTIVITY },
};
