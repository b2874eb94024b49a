/**
 * Lua scripts of the Redis adapter: each write, its index changes and the events it causes run as one atomic
 * step. Every key a script touches starts with the directory prefix `dsync:{<directoryId>}:`, so all of a
 * directory's keys share one hash slot (Redis Cluster); KEYS[1] is the directory record, which routes the call
 * and lets every write refuse once the directory is gone.
 *
 * Record encoding (a plain string, far smaller than a hash once the body exceeds listpack limits):
 *   <version>\x1f<created ms>\x1f<modified ms>\x1f<k1>\x1f<k2>\x1f<k3>\x1e<JSON body>
 * users: k1 = lower(userName), k2 = externalId, k3 = lower(emails) joined by \x1d
 * groups: k1 = lower(displayName), k2 = externalId, k3 = ''
 *
 * Membership changes are entries `<op><uid>\x1f<userVersion>\x1f<event JSON>\x1f<display>`, op '-' remove,
 * '+' add, '=' set the display only (event JSON never holds a raw control character; the display comes last, so
 * it may). Up to one chunk of entries travels inline with the write. A bigger change is staged first (RPUSH in
 * chunks to an expiring `gs:<gid>:<token>` list, user versions checked per chunk), then the write commits it
 * atomically by renaming the list to the group's journal `gj:<gid>`; the journal is applied a chunk per script
 * call (dsyncDrain). Until it is drained the group, and every user of the directory (`gpend`), answer `busy` to
 * writes and the adapter drains before reading memberships: nobody sees half a change, a crash after the commit
 * is finished by the next reader or writer, a crash before it leaves only a staging list that expires.
 * `uw` counts user writes: when users were written while entries were being staged, the commit answers `restamp`
 * and the adapter re-checks the staged versions (dsyncVerify, a chunk per call) before committing again.
 */

const PRELUDE = `
local SEP, BODY, LIST = '\\31', '\\30', '\\29'
local p = ARGV[1]
local function split(s, sep)
  local out, start = {}, 1
  while true do
    local i = string.find(s, sep, start, true)
    if not i then out[#out + 1] = string.sub(s, start); return out end
    out[#out + 1] = string.sub(s, start, i - 1)
    start = i + 1
  end
end
local function parse(rec)
  local i = string.find(rec, BODY, 1, true)
  return split(string.sub(rec, 1, i - 1), SEP), string.sub(rec, i + 1)
end
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
local function emit(json) redis.call('XADD', p .. 'ev', '*', 'e', json) end
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
local function nextSeq() return redis.call('INCR', p .. 'seq') end
-- The version of a stored record (its first header field), or nil when it does not exist.
local function versionOf(key)
  local rec = redis.call('GET', key)
  if not rec then return nil end
  return string.sub(rec, 1, string.find(rec, SEP, 1, true) - 1)
end
local function ok(h, flags) return {'ok', h[1], h[3], flags or ''} end
-- Some group's membership change is committed but not fully applied (see the journal above).
local function pendingMembers() return redis.call('SCARD', p .. 'gpend') > 0 end
if redis.call('EXISTS', KEYS[1]) == 0 then return {'missing'} end
`;

/** ARGV: prefix, id, userName, externalId, emails, created, modified, body, nEvents, events… */
const createUser = `
local id, un, ext, ems = ARGV[2], ARGV[3], ARGV[4], ARGV[5]
if redis.call('HSETNX', p .. 'un', un, id) == 0 then return {'conflict'} end
local h = {'1', ARGV[6], ARGV[7], un, ext, ems}
redis.call('SET', p .. 'u:' .. id, encode(h, ARGV[8]))
redis.call('ZADD', p .. 'uo', nextSeq(), id)
madd(p .. 'ue', ext, id)
for _, e in ipairs(split(ems, LIST)) do madd(p .. 'um', e, id) end
emitn(9)
return ok(h)
`;

/** ARGV: prefix, id, expectedVersion, userName, externalId, emails, now, body, nEvents, events… */
const updateUser = `
local id, un, ext, ems, now = ARGV[2], ARGV[4], ARGV[5], ARGV[6], ARGV[7]
local key = p .. 'u:' .. id
local rec = redis.call('GET', key)
if not rec then return {'missing'} end
local h = parse(rec)
if h[1] ~= ARGV[3] then return {'stale'} end
if pendingMembers() then return {'busy'} end
if not rekey(p .. 'un', h[4], un, id) then return {'conflict'} end
redis.call('INCR', p .. 'uw')
remulti(p .. 'ue', h[5], ext, id)
if ems ~= h[6] then
  for _, e in ipairs(split(h[6], LIST)) do mdel(p .. 'um', e, id) end
  for _, e in ipairs(split(ems, LIST)) do madd(p .. 'um', e, id) end
end
h[4], h[5], h[6] = un, ext, ems
bump(h, now)
redis.call('SET', key, encode(h, ARGV[8]))
emitn(9)
return ok(h)
`;

/** ARGV: prefix, id, expectedVersion, now, nGroups, (groupId, groupVersion)…, nEvents, events… */
const deleteUser = `
local id, now = ARGV[2], ARGV[4]
local key = p .. 'u:' .. id
local rec = redis.call('GET', key)
if not rec then return {'missing'} end
local h = parse(rec)
if h[1] ~= ARGV[3] then return {'stale'} end
if pendingMembers() then return {'busy'} end
local n = tonumber(ARGV[5])
if redis.call('SCARD', p .. 'ug:' .. id) ~= n then return {'stale'} end
-- The removal events carry each group as read: every group must still be that version.
for i = 6, 4 + 2 * n, 2 do
  if redis.call('SISMEMBER', p .. 'ug:' .. id, ARGV[i]) == 0 or versionOf(p .. 'g:' .. ARGV[i]) ~= ARGV[i + 1] then
    return {'stale'}
  end
end
for i = 6, 4 + 2 * n, 2 do
  redis.call('ZREM', p .. 'm:' .. ARGV[i], id)
  redis.call('HDEL', p .. 'md:' .. ARGV[i], id)
  touch(p .. 'g:' .. ARGV[i], now)
end
redis.call('DEL', p .. 'ug:' .. id, key)
redis.call('INCR', p .. 'uw')
if redis.call('HGET', p .. 'un', h[4]) == id then redis.call('HDEL', p .. 'un', h[4]) end
mdel(p .. 'ue', h[5], id)
for _, e in ipairs(split(h[6], LIST)) do mdel(p .. 'um', e, id) end
redis.call('ZREM', p .. 'uo', id)
emitn(6 + 2 * n)
return ok(h)
`;

/** Membership entries (see the top of this file): checking, applying, staging and committing them. */
const MEMBERS = `
-- op, uid, userVersion, event, display
local function entry(e)
  local a = string.find(e, SEP, 2, true)
  local b = string.find(e, SEP, a + 1, true)
  local c = string.find(e, SEP, b + 1, true)
  return string.sub(e, 1, 1), string.sub(e, 2, a - 1), string.sub(e, a + 1, b - 1), string.sub(e, b + 1, c - 1), string.sub(e, c + 1)
end
-- An event built from another version of an existing user would lie.
local function staleEntries(list)
  for _, e in ipairs(list) do
    local op, uid, version = entry(e)
    if op ~= '=' then
      local v = versionOf(p .. 'u:' .. uid)
      if v and v ~= version then return true end
    end
  end
  return false
end
local function setDisplay(gid, uid, display)
  if display ~= '' and redis.call('ZSCORE', p .. 'm:' .. gid, uid) then redis.call('HSET', p .. 'md:' .. gid, uid, display) end
end
-- Applies entries in order; returns a '0'/'1' flag per add/remove (did it change anything, was its event emitted).
local function applyEntries(gid, list)
  local flags = {}
  for _, e in ipairs(list) do
    local op, uid, _, event, display = entry(e)
    if op == '+' then
      if redis.call('EXISTS', p .. 'u:' .. uid) == 1 and redis.call('ZADD', p .. 'm:' .. gid, 'NX', nextSeq(), uid) == 1 then
        redis.call('SADD', p .. 'ug:' .. uid, gid)
        emit(event)
        flags[#flags + 1] = '1'
      else
        flags[#flags + 1] = '0'
      end
      setDisplay(gid, uid, display)
    elseif op == '-' then
      if redis.call('ZREM', p .. 'm:' .. gid, uid) == 1 then
        redis.call('SREM', p .. 'ug:' .. uid, gid)
        redis.call('HDEL', p .. 'md:' .. gid, uid)
        emit(event)
        flags[#flags + 1] = '1'
      else
        flags[#flags + 1] = '0'
      end
    else
      setDisplay(gid, uid, display)
    end
  end
  return table.concat(flags)
end
-- The membership part of a write, from ARGV[i]: 'i', n, entries… (inline) or 's', stageKey, token, stamp
-- (staged). Returns a function that applies it (inline: the flags; staged: journals it, no flags yet), nil
-- when the write is stale, false when users were written since the stamp (the staged versions need a re-check).
local function memberInput(gid, i)
  if ARGV[i] == 'i' then
    local list = {}
    for j = i + 2, i + 1 + tonumber(ARGV[i + 1]) do list[#list + 1] = ARGV[j] end
    if staleEntries(list) then return nil end
    return function() return applyEntries(gid, list) end
  end
  local stage, token, stamp = ARGV[i + 1], ARGV[i + 2], ARGV[i + 3]
  if redis.call('EXISTS', stage) == 0 then return nil end
  if (redis.call('GET', p .. 'uw') or '0') ~= stamp then return false end
  return function()
    redis.call('RENAME', stage, p .. 'gj:' .. gid)
    redis.call('PERSIST', p .. 'gj:' .. gid)
    redis.call('SET', p .. 'gt:' .. gid, token)
    redis.call('SADD', p .. 'gpend', gid)
    return nil
  end
end
`;

/** ARGV: prefix, id, displayName, externalId, created, modified, body, nEvents, events…, members (see memberInput) */
const createGroup = `
local id, dn, ext = ARGV[2], ARGV[3], ARGV[4]
local apply = memberInput(id, 9 + tonumber(ARGV[8]))
if apply == false then return {'restamp'} elseif not apply then return {'stale'} end
if redis.call('HSETNX', p .. 'gn', dn, id) == 0 then return {'conflict'} end
local h = {'1', ARGV[5], ARGV[6], dn, ext, ''}
redis.call('SET', p .. 'g:' .. id, encode(h, ARGV[7]))
redis.call('ZADD', p .. 'go', nextSeq(), id)
madd(p .. 'ge', ext, id)
emitn(8)
return ok(h, apply())
`;

/**
 * ARGV: prefix, id, expectedVersion|'', hasBody ('1'|''), displayName, externalId, now, body, expectedBody|'',
 *       nEvents, events…, members (see memberInput)
 */
const updateGroup = `
local id, now = ARGV[2], ARGV[7]
local key = p .. 'g:' .. id
local rec = redis.call('GET', key)
if not rec then return {'missing'} end
if redis.call('EXISTS', p .. 'gj:' .. id) == 1 then return {'busy'} end
local h, body = parse(rec)
if ARGV[3] ~= '' and h[1] ~= ARGV[3] then return {'stale'} end
if ARGV[9] ~= '' and body ~= ARGV[9] then return {'stale'} end
local apply = memberInput(id, 11 + tonumber(ARGV[10]))
if apply == false then return {'restamp'} elseif not apply then return {'stale'} end
local changed = false
if ARGV[4] == '1' then
  local dn, ext = ARGV[5], ARGV[6]
  if not rekey(p .. 'gn', h[4], dn, id) then return {'conflict'} end
  remulti(p .. 'ge', h[5], ext, id)
  h[4], h[5], body, changed = dn, ext, ARGV[8], true
end
emitn(10)
local flags = apply()
-- A journaled change moves the version now: it is committed, and writers that read before must re-read.
if changed or not flags or string.find(flags, '1', 1, true) then
  bump(h, now)
  redis.call('SET', key, encode(h, body))
end
return ok(h, flags)
`;

/**
 * ARGV: prefix, groupId, chunk size. Applies the next chunk of the group's journal, or unlinks the next chunk of
 * a deleted group's members (gx:<gid>); answers 'more' until there is nothing left, then 'done'.
 */
const drain = `
local gid, n = ARGV[2], tonumber(ARGV[3])
local journal = p .. 'gj:' .. gid
local list = redis.call('LPOP', journal, n)
if list then
  local flags = p .. 'gf:' .. redis.call('GET', p .. 'gt:' .. gid)
  redis.call('APPEND', flags, applyEntries(gid, list))
  redis.call('PEXPIRE', flags, 3600000)
  if redis.call('EXISTS', journal) == 0 then
    redis.call('DEL', p .. 'gt:' .. gid)
    redis.call('SREM', p .. 'gpend', gid)
  end
  return 'more'
end
local gone = redis.call('ZPOPMIN', p .. 'gx:' .. gid, n)
for i = 1, #gone, 2 do redis.call('SREM', p .. 'ug:' .. gone[i], gid) end
if #gone > 0 and redis.call('EXISTS', p .. 'gx:' .. gid) == 1 then return 'more' end
redis.call('SREM', p .. 'gpend', gid)
return 'done'
`;

/** ARGV: prefix, stageKey, from, count. Re-checks the user versions of staged entries; answers the user-write count. */
const verify = `
local stamp = redis.call('GET', p .. 'uw') or '0'
if staleEntries(redis.call('LRANGE', ARGV[2], ARGV[3], tonumber(ARGV[3]) + tonumber(ARGV[4]) - 1)) then return {'stale'} end
return {'ok', stamp}
`;

/** ARGV: prefix, stageKey, ttl ms, entries… Appends a chunk to a staging list; answers the user-write count. */
const stage = `
local list = {}
for j = 4, #ARGV do list[#list + 1] = ARGV[j] end
if staleEntries(list) then return {'stale'} end
redis.call('RPUSH', ARGV[2], unpack(list))
redis.call('PEXPIRE', ARGV[2], ARGV[3])
return {'ok', redis.call('GET', p .. 'uw') or '0'}
`;

/**
 * ARGV: prefix, id, expectedVersion, chunk size, nEvents, events… The group goes at once; the user→group links
 * of more members than a chunk are unlinked afterwards by dsyncDrain (gx:<gid>, listed in gpend).
 */
const deleteGroup = `
local id = ARGV[2]
local key = p .. 'g:' .. id
local rec = redis.call('GET', key)
if not rec then return {'missing'} end
if redis.call('EXISTS', p .. 'gj:' .. id) == 1 then return {'busy'} end
local h = parse(rec)
if h[1] ~= ARGV[3] then return {'stale'} end
local members = p .. 'm:' .. id
if redis.call('ZCARD', members) > tonumber(ARGV[4]) then
  redis.call('RENAME', members, p .. 'gx:' .. id)
  redis.call('SADD', p .. 'gpend', id)
else
  for _, uid in ipairs(redis.call('ZRANGE', members, 0, -1)) do redis.call('SREM', p .. 'ug:' .. uid, id) end
  redis.call('DEL', members)
end
redis.call('UNLINK', p .. 'md:' .. id, key)
if redis.call('HGET', p .. 'gn', h[4]) == id then redis.call('HDEL', p .. 'gn', h[4]) end
mdel(p .. 'ge', h[5], id)
redis.call('ZREM', p .. 'go', id)
emitn(5)
return ok(h)
`;

export const SCRIPTS = {
  dsyncCreateUser: PRELUDE + createUser,
  dsyncUpdateUser: PRELUDE + updateUser,
  dsyncDeleteUser: PRELUDE + deleteUser,
  dsyncCreateGroup: PRELUDE + MEMBERS + createGroup,
  dsyncUpdateGroup: PRELUDE + MEMBERS + updateGroup,
  dsyncDeleteGroup: PRELUDE + deleteGroup,
  dsyncDrain: PRELUDE + MEMBERS + drain,
  dsyncStage: PRELUDE + MEMBERS + stage,
  dsyncVerify: PRELUDE + MEMBERS + verify,
} as const;
export type ScriptName = keyof typeof SCRIPTS;

export const FIELD_SEP = '\x1f';
export const BODY_SEP = '\x1e';
export const LIST_SEP = '\x1d';
