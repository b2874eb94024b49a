/**
 * What every write script of the Redis adapter starts with (PRELUDE; the scripts: users.ts, groups.ts,
 * memberships.ts, by name in scripts.ts). Each write, its index changes and the events it causes run as one
 * atomic step. Every key a script touches starts with the directory prefix `dsync:{<directoryId>}:`, so all of a
 * directory's keys share one hash slot (Redis Cluster), and the caller declares every one of them (KEYS), as
 * Redis requires: a cluster routes the call by them and, while their slot migrates (resharding), answers
 * ASK/TRYAGAIN instead of running the script on a half-moved directory. KEYS[1] is the directory record
 * `<prefix>dir` (the prefix is read from it), which lets every write refuse once the directory is gone; the
 * others are listed per script in keys.ts. Inside Lua every key name goes through `k(name[, id])`, which
 * raises `undeclared key <key>` for a key the caller did not declare: a missing declaration cannot pass
 * silently (it stops the script where it stands, like any script error: a bug the store's tests catch, not a
 * path at run time). Keys that follow from stored data are read by the adapter first (a user's groups, a
 * group's members, a big change's own entries) and checked by the script before it writes anything: a user's
 * groups that changed answer `stale` (the writer re-reads), other keys it finds undeclared (a member added
 * meanwhile, the users of a journal chunk someone else's change left) `{'keys', name…}`, all it needs, and the
 * adapter calls again with those declared too.
 *
 * Record encoding (a plain string, far smaller than a hash once the body exceeds listpack limits):
 *   <version>\x1f<created ms>\x1f<modified ms>\x1f<k1>\x1f<k2>\x1f<k3>\x1e<JSON body>
 * users: k1 = lower(userName), k2 = externalId, k3 = lower(emails) joined by \x1d, then the version the next
 *        five were written with ('' when there are none), and the user's event data fields as JSON (first name,
 *        last name, email, active, attributes: core/events.ts userDataFields), from which a membership write's
 *        script builds the user's events; then the manager's id (indexed in `ur`) and email as the writer resolved
 *        it ('' when none), the user's roles as JSON (core/roles.ts; a record without them has none) and its custom
 *        attributes as JSON (core/custom-attributes.ts; likewise). The version tells a record whose body an older dsync rewrote, leaving them stale; a
 *        record without them (written by an older dsync) has its events built by the writer.
 * groups: k1 = lower(displayName), k2 = externalId, k3 = ''
 * Membership changes: see memberships.ts.
 */
import { SEQUENCE_BASE } from '../event-ids.js';

/** Helpers of every script; it answers `missing` once the directory is gone. */
export const PRELUDE = `
local SEP, BODY, LIST = '\\31', '\\30', '\\29'
local declared = {}
for _, name in ipairs(KEYS) do declared[name] = true end
local p = string.sub(KEYS[1], 1, -4)
-- The one way to name a key: the directory prefix + name (+ id: one string made, not two), refused unless the
-- caller declared it.
local function k(name, id)
  local key = id and p .. name .. id or p .. name
  if not declared[key] then error(redis.error_reply('ERR undeclared key ' .. key)) end
  return key
end
-- Whether every one of these names (found in stored data) was declared.
local function allDeclared(names)
  for _, name in ipairs(names) do if not declared[p .. name] then return false end end
  return true
end
-- Asks the adapter to call again with these names declared too.
local function keysReply(names)
  table.insert(names, 1, 'keys')
  return names
end
local function split(s, sep)
  local out, start = {}, 1
  while true do
    local i = string.find(s, sep, start, true)
    if not i then out[#out + 1] = string.sub(s, start); return out end
    out[#out + 1] = string.sub(s, start, i - 1)
    start = i + 1
  end
end
-- A record's header fields, and its body when asked (\`header\` alone spares a copy of the body: Redis' Lua hashes
-- every byte of every string it makes).
local function header(rec) return split(string.sub(rec, 1, string.find(rec, BODY, 1, true) - 1), SEP) end
local function parse(rec) return header(rec), string.sub(rec, string.find(rec, BODY, 1, true) + 1) end
local function encode(h, body) return table.concat(h, SEP) .. BODY .. body end
-- Non-unique index: hash field -> space-separated ids.
local function madd(key, field, id)
  if field == '' then return end
  local cur = redis.call('HGET', key, field)
  if not cur then redis.call('HSET', key, field, id); return end
  for _, x in ipairs(split(cur, ' ')) do if x == id then return end end
  redis.call('HSET', key, field, cur .. ' ' .. id)
end
local function mdel(key, field, id)
  if field == '' then return end
  local cur = redis.call('HGET', key, field)
  if not cur then return end
  local keep = {}
  for _, x in ipairs(split(cur, ' ')) do if x ~= id then keep[#keep + 1] = x end end
  if #keep == 0 then redis.call('HDEL', key, field) else redis.call('HSET', key, field, table.concat(keep, ' ')) end
end
-- Moves a unique index entry from old to new; false when new already belongs to another resource.
local function rekey(key, old, new, id)
  if new == old then return true end
  local owner = redis.call('HGET', key, new)
  if owner and owner ~= id then return false end
  redis.call('HDEL', key, old)
  redis.call('HSET', key, new, id)
  return true
end
local function remulti(key, old, new, id)
  if old ~= new then mdel(key, old, id); madd(key, new, id) end
end
-- The log's keys named once a script (each name made is a string Lua hashes). An entry's id is
-- <ms>-<SEQUENCE_BASE + the event's sequence in its directory> (../event-ids.ts), the sequence counted in
-- \`evn\`. An id at or below the log's last one (a clock behind the one that wrote it, an entry an older dsync
-- added in this millisecond) is refused: the event then goes after that one.
local logKey, countKey, logMs
local function lastLogId()
  local info = redis.call('XINFO', 'STREAM', logKey)
  for i = 1, #info, 2 do if info[i] == 'last-generated-id' then return string.match(info[i + 1], '^(%d+)-(%d+)$') end end
end
local function emit(json)
  if not logKey then
    logKey, countKey = k('ev'), k('evn')
    local t = redis.call('TIME')
    logMs = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  end
  local n = redis.call('INCR', countKey)
  local added = redis.pcall('XADD', logKey, string.format('%.0f-%.0f', logMs, ${SEQUENCE_BASE} + n), 'e', json)
  if type(added) == 'table' and added.err then
    local ms, last = lastLogId()
    logMs = math.max(logMs, tonumber(ms))
    if tonumber(last) >= ${SEQUENCE_BASE} + n then
      n = tonumber(last) - ${SEQUENCE_BASE} + 1
      redis.call('SET', countKey, n)
    end
    redis.call('XADD', logKey, string.format('%.0f-%.0f', logMs, ${SEQUENCE_BASE} + n), 'e', json)
  end
end
-- Emits n events starting at ARGV[i]; returns the next index.
local function emitn(i)
  local n = tonumber(ARGV[i])
  for j = i + 1, i + n do emit(ARGV[j]) end
  return i + n + 1
end
local function bump(h, now)
  h[1] = tostring(tonumber(h[1]) + 1)
  if tonumber(now) > tonumber(h[3]) then h[3] = now end
end
local function touch(key, now)
  local rec = redis.call('GET', key)
  if not rec then return end
  local h, body = parse(rec)
  bump(h, now)
  redis.call('SET', key, encode(h, body))
end
-- Insertion counter: ZSET scores that keep creation/add order exactly, like the memory store.
local function nextSeq() return redis.call('INCR', k('seq')) end
-- The version of a stored record (its first header field), or nil when it does not exist.
local function versionOf(key)
  local rec = redis.call('GET', key)
  if not rec then return nil end
  return string.sub(rec, 1, string.find(rec, SEP, 1, true) - 1)
end
local function ok(h, flags) return {'ok', h[1], h[3], flags or ''} end
-- A user record's event data fields from ARGV[8]: '1', first, last, email, active, attributes (JSON), or '' for
-- none, stamped with the version they are written with; then its manager's id and email, its roles and its custom
-- attributes (JSON).
-- Returns the index after them.
local function eventFields(h)
  local n = 9
  if ARGV[8] == '' then
    h[7], h[8], h[9], h[10], h[11], h[12] = '', '', '', '', '', ''
  else
    h[7], h[8], h[9], h[10], h[11], h[12] = h[1], ARGV[9], ARGV[10], ARGV[11], ARGV[12], ARGV[13]
    n = 14
  end
  h[13], h[14], h[15], h[16] = ARGV[n], ARGV[n + 1], ARGV[n + 2], ARGV[n + 3]
  return n + 4
end
-- Some group's membership change is committed but not fully applied (see memberships.ts).
local function pendingMembers() return redis.call('SCARD', k('gpend')) > 0 end
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing'} end
`;

export const FIELD_SEP = '\x1f';
export const BODY_SEP = '\x1e';
export const LIST_SEP = '\x1d';
