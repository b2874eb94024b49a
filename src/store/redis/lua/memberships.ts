/**
 * Lua of membership changes (run after prelude.ts' PRELUDE, whose `k(name[, id])` names every key): MEMBERS, the
 * entries' part of a group write (groups.ts), and the scripts that stage, re-check and drain a big change.
 *
 * Membership changes are entries `<op><uid>\x1f<userVersion>\x1f<event JSON>\x1f<display>`, op '-' remove,
 * '+' add, '=' set the display only (event JSON never holds a raw control character; the display comes last, so
 * it may). Up to one chunk of entries travels inline with the write, with their events, or ('b') with only each
 * event's id: the script builds the events from the users' records (their event fields, see prelude.ts), which
 * spares the writer reading the users and sending the events' bytes (docs/design/performance.md, "A membership
 * change's events built by its script"). A bigger change is staged first (RPUSH in chunks to an expiring
 * `gs:<gid>:<token>` list, user versions checked per chunk), then the write commits it
 * atomically by renaming the list to the group's journal `gj:<gid>`; the journal is applied a chunk per script
 * call (dsyncDrain). Until it is drained the group, and every user of the directory (`gpend`), answer `busy` to
 * writes and the adapter drains before reading memberships: nobody sees half a change, a crash after the commit
 * is finished by the next reader or writer, a crash before it leaves only a staging list that expires.
 * `uw` counts user writes: when users were written while entries were being staged, the commit answers `restamp`
 * and the adapter re-checks the staged versions (dsyncVerify, a chunk per call) before committing again.
 * The keys of an entry are its user's record `u:<uid>` and groups `ug:<uid>`: the caller declares them from the
 * entries it sends or staged; entries it did not write (a journal another writer left) the script names first
 * (`{'keys', …}`).
 */

/** Membership entries: checking, applying, staging and committing them. */
export const MEMBERS = `
-- op, uid, userVersion, event, display
local function entry(e)
  local a = string.find(e, SEP, 2, true)
  local b = string.find(e, SEP, a + 1, true)
  local c = string.find(e, SEP, b + 1, true)
  return string.sub(e, 1, 1), string.sub(e, 2, a - 1), string.sub(e, a + 1, b - 1), string.sub(e, b + 1, c - 1), string.sub(e, c + 1)
end
-- Entries from[..to] of a list split once, as parallel lists (each string a script makes costs its length in
-- hashing: a write's steps share one split instead of each making its own).
local function parsed(list, from, to)
  local op, uid, version, event, display = {}, {}, {}, {}, {}
  from, to = from or 1, to or #list
  for j = from, to do
    local x = j - from + 1
    op[x], uid[x], version[x], event[x], display[x] = entry(list[j])
  end
  return {n = to - from + 1, op = op, uid = uid, version = version, event = event, display = display}
end
-- The keys of the users that entries add or remove: u:<uid>, and with links ug:<uid> too (only the op and uid
-- of each entry are read).
local function entryKeys(list, links)
  local names = {}
  for _, e in ipairs(list) do
    local op, uid = string.sub(e, 1, 1), string.sub(e, 2, string.find(e, SEP, 2, true) - 1)
    if op ~= '=' then
      names[#names + 1] = 'u:' .. uid
      if links then names[#names + 1] = 'ug:' .. uid end
    end
  end
  return names
end
-- An event built from another version of an existing user would lie (\`entries\`: parsed).
local function staleEntries(entries)
  local ops, uids, versions = entries.op, entries.uid, entries.version
  for j = 1, entries.n do
    if ops[j] ~= '=' then
      local v = versionOf(k('u:', uids[j]))
      if v and v ~= versions[j] then return true end
    end
  end
  return false
end
local function setDisplay(members, shown, uid, display)
  if display ~= '' and redis.call('ZSCORE', members, uid) then redis.call('HSET', shown, uid, display) end
end
-- The events of entries sent with their ids only, built from each user's record as core/events.ts builds them
-- (MembershipEvents.of with userDataJson): false for a user that does not exist (skipped, as a writer skips it);
-- nil when a record has no event fields of its own version, or no roles and custom attributes (see prelude.ts): the writer builds
-- them then.
-- One pattern match reads a record's version, its fields' version, the fields and where the body starts, and one
-- concatenation builds the event (splitting the header into a table and joining pieces made a string each; a
-- field's key goes in beside the field, not joined to it first, for the same reason).
local USER_EVENT_FIELDS = '^([^\\31]*)\\31[^\\31]*\\31[^\\31]*\\31[^\\31]*\\31[^\\31]*\\31[^\\31]*\\31([^\\31]*)\\31([^\\31]*)\\31([^\\31]*)\\31([^\\31]*)\\31([^\\31]*)\\31([^\\31]*)\\31[^\\31]*\\31[^\\31]*\\31([^\\31]*)\\31([^\\31\\30]*)\\30()'
local function builtEvents(entries, removed, added, group)
  local out = {}
  local ops, uids, ids = entries.op, entries.uid, entries.event
  for j = 1, entries.n do
    local op, uid, id = ops[j], uids[j], ids[j]
    if op ~= '=' then
      local rec = redis.call('GET', k('u:', uid))
      if rec then
        local v, fv, first, last, email, active, attributes, roles, custom, at = string.match(rec, USER_EVENT_FIELDS)
        if not v or fv ~= v or custom == '' then return nil end
        out[j] = '{"id":"' .. id .. '"' .. (op == '+' and added or removed) .. '{"id":"' .. uid .. '"' ..
          (first ~= '' and ',"first_name":' or '') .. first .. (last ~= '' and ',"last_name":' or '') .. last ..
          (email ~= '' and ',"email":' or '') .. email .. ',"active":' .. active .. ',"attributes":' .. attributes .. ',"custom_attributes":' .. custom .. ',"roles":' .. roles .. ',"raw":' .. string.sub(rec, at, -2) ..
          ',"id":"' .. uid .. '"},"group":' .. group .. '}}'
      else
        out[j] = false
      end
    end
  end
  return out
end
-- Applies entries in order, with their events or those \`built\`; returns a '0'/'1' flag per add/remove (did it
-- change anything, was its event emitted). The adds' member scores come from one INCRBY (in entry order; an add
-- that changes nothing leaves a gap), and a built event was built from its user's record in this script, which
-- so exists: two commands fewer per member.
local function applyEntries(gid, entries, built)
  if entries.n == 0 then return '' end
  local flags = {}
  local ops, uids, events, displays = entries.op, entries.uid, entries.event, entries.display
  local members, shown = k('m:', gid), k('md:', gid)
  local adds = 0
  for j = 1, entries.n do if ops[j] == '+' then adds = adds + 1 end end
  local seq = adds > 0 and redis.call('INCRBY', k('seq'), adds) - adds or 0
  for j = 1, entries.n do
    local op, uid, event, display = ops[j], uids[j], events[j], displays[j]
    if built then event = built[j] end
    if op == '+' then
      seq = seq + 1
      if event and (built or redis.call('EXISTS', k('u:', uid)) == 1) and redis.call('ZADD', members, 'NX', seq, uid) == 1 then
        redis.call('SADD', k('ug:', uid), gid)
        emit(event)
        flags[#flags + 1] = '1'
      else
        flags[#flags + 1] = '0'
      end
      setDisplay(members, shown, uid, display)
    elseif op == '-' then
      if event and redis.call('ZREM', members, uid) == 1 then
        redis.call('SREM', k('ug:', uid), gid)
        redis.call('HDEL', shown, uid)
        emit(event)
        flags[#flags + 1] = '1'
      else
        flags[#flags + 1] = '0'
      end
    else
      setDisplay(members, shown, uid, display)
    end
  end
  return table.concat(flags)
end
-- The membership part of a write, from ARGV[i]: 'i', n, entries… (inline), 'b', removed middle, added middle,
-- group JSON, n, entries… (inline, events built here: see builtEvents) or 's', token, stamp (staged as
-- gs:<gid>:<token>). Returns a function that applies it (inline: the flags; staged: journals it, no flags yet),
-- nil when the write is stale, false when users were written since the stamp (the staged versions need a re-check),
-- 'unbuilt' when an event cannot be built here.
local function memberInput(gid, i)
  if ARGV[i] == 'i' then
    local entries = parsed(ARGV, i + 2, i + 1 + tonumber(ARGV[i + 1]))
    if staleEntries(entries) then return nil end
    return function() return applyEntries(gid, entries) end
  end
  if ARGV[i] == 'b' then
    local entries = parsed(ARGV, i + 5, i + 4 + tonumber(ARGV[i + 4]))
    local built = builtEvents(entries, ARGV[i + 1], ARGV[i + 2], ARGV[i + 3])
    if not built then return 'unbuilt' end
    return function() return applyEntries(gid, entries, built) end
  end
  local token, stamp = ARGV[i + 1], ARGV[i + 2]
  local stage = k('gs:' .. gid .. ':' .. token)
  if redis.call('EXISTS', stage) == 0 then return nil end
  if (redis.call('GET', k('uw')) or '0') ~= stamp then return false end
  return function()
    local journal = k('gj:', gid)
    redis.call('RENAME', stage, journal)
    redis.call('PERSIST', journal)
    redis.call('SET', k('gt:', gid), token)
    redis.call('SADD', k('gpend'), gid)
    return nil
  end
end
`;

/**
 * ARGV: groupId, chunk size, peek ('1'|''). Applies the next chunk of the group's journal, or unlinks the next
 * chunk of a deleted group's members (gx:<gid>), once the keys of that chunk are declared. Answers `{'done'}`
 * when nothing is left, else `{'keys', …}` with the keys of the chunk to do next (when it could not apply this
 * one, or with peek: a caller that does not know the journal's content), or `{'more'}` (the writer of the
 * change, which declares each chunk from the entries it staged).
 */
export const drain = `
local gid, n, peek = ARGV[1], tonumber(ARGV[2]), ARGV[3] == '1'
local journal, gone = k('gj:', gid), k('gx:', gid)
-- The next chunk: the keys it touches besides the group's own, and the function that does it; nil when none is left.
local function nextChunk()
  local list = redis.call('LRANGE', journal, 0, n - 1)
  if #list > 0 then
    local token = redis.call('GET', k('gt:', gid))
    local names = entryKeys(list, true)
    names[#names + 1] = 'gf:' .. token
    return names, function()
      redis.call('LTRIM', journal, #list, -1)
      local flags = k('gf:', token)
      redis.call('APPEND', flags, applyEntries(gid, parsed(list)))
      redis.call('PEXPIRE', flags, 3600000)
      if redis.call('EXISTS', journal) == 0 then
        redis.call('DEL', k('gt:', gid))
        redis.call('SREM', k('gpend'), gid)
      end
    end
  end
  local uids = redis.call('ZRANGE', gone, 0, n - 1)
  if #uids == 0 then return nil end
  local names = {}
  for i, uid in ipairs(uids) do names[i] = 'ug:' .. uid end
  return names, function()
    redis.call('ZREMRANGEBYRANK', gone, 0, #uids - 1)
    for _, uid in ipairs(uids) do redis.call('SREM', k('ug:', uid), gid) end
  end
end
local names, apply = nextChunk()
if names and allDeclared(names) then
  apply()
  if not peek and redis.call('EXISTS', journal, gone) > 0 then return {'more'} end
  names = nextChunk()
end
if names then return keysReply(names) end
redis.call('SREM', k('gpend'), gid)
return {'done'}
`;

/**
 * ARGV: groupId, token, from, count. Re-checks the user versions of staged entries; answers the user-write
 * count, or 'stale' (also when the list holds a user the caller did not declare: not what it staged).
 */
export const verify = `
local stamp = redis.call('GET', k('uw')) or '0'
local from = tonumber(ARGV[3])
local list = redis.call('LRANGE', k('gs:' .. ARGV[1] .. ':' .. ARGV[2]), from, from + tonumber(ARGV[4]) - 1)
if not allDeclared(entryKeys(list, false)) or staleEntries(parsed(list)) then return {'stale'} end
return {'ok', stamp}
`;

/** ARGV: groupId, token, ttl ms, entries… Appends a chunk to a staging list; answers the user-write count. */
export const stage = `
local key = k('gs:' .. ARGV[1] .. ':' .. ARGV[2])
local list = {}
for j = 4, #ARGV do list[#list + 1] = ARGV[j] end
if staleEntries(parsed(list)) then return {'stale'} end
redis.call('RPUSH', key, unpack(list))
redis.call('PEXPIRE', key, ARGV[3])
return {'ok', redis.call('GET', k('uw')) or '0'}
`;
