/**
 * Lua of the group writes (run after prelude.ts' PRELUDE; create and update after memberships.ts' MEMBERS too,
 * whose `memberInput` takes the membership part of the write): create, update and delete.
 */

/** ARGV: id, displayName, externalId, created, modified, body, nEvents, events…, members (see memberInput) */
export const createGroup = `
local id, dn, ext = ARGV[1], ARGV[2], ARGV[3]
local apply = memberInput(id, 8 + tonumber(ARGV[7]))
if apply == false then return {'restamp'} elseif not apply then return {'stale'} elseif apply == 'unbuilt' then return {apply} end
if redis.call('HSETNX', k('gn'), dn, id) == 0 then return {'conflict'} end
local h = {'1', ARGV[4], ARGV[5], dn, ext, ''}
redis.call('SET', k('g:', id), encode(h, ARGV[6]))
redis.call('ZADD', k('go'), nextSeq(), id)
madd(k('ge'), ext, id)
emitn(7)
return ok(h, apply())
`;

/**
 * ARGV: id, expectedVersion|'', hasBody ('1'|''), displayName, externalId, now, body, expectedBody|'',
 *       nEvents, events…, members (see memberInput)
 */
export const updateGroup = `
local id, now = ARGV[1], ARGV[6]
local key = k('g:', id)
local rec = redis.call('GET', key)
if not rec then return {'missing'} end
if redis.call('EXISTS', k('gj:', id)) == 1 then return {'busy'} end
local h, body = parse(rec)
if ARGV[2] ~= '' and h[1] ~= ARGV[2] then return {'stale'} end
if ARGV[8] ~= '' and body ~= ARGV[8] then return {'stale'} end
local apply = memberInput(id, 10 + tonumber(ARGV[9]))
if apply == false then return {'restamp'} elseif not apply then return {'stale'} elseif apply == 'unbuilt' then return {apply} end
local changed = false
if ARGV[3] == '1' then
  local dn, ext = ARGV[4], ARGV[5]
  if not rekey(k('gn'), h[4], dn, id) then return {'conflict'} end
  remulti(k('ge'), h[5], ext, id)
  h[4], h[5], body, changed = dn, ext, ARGV[7], true
end
emitn(9)
local flags = apply()
-- A journaled change moves the version now: it is committed, and writers that read before must re-read.
if changed or not flags or string.find(flags, '1', 1, true) then
  bump(h, now)
  redis.call('SET', key, encode(h, body))
end
return ok(h, flags)
`;

/**
 * ARGV: id, expectedVersion, chunk size, nEvents, events… The group goes at once; the user→group links of more
 * members than a chunk are unlinked afterwards by dsyncDrain (gx:<gid>, listed in gpend), those of fewer here,
 * once their keys (ug:<uid>) are declared.
 */
export const deleteGroup = `
local id = ARGV[1]
local key = k('g:', id)
local rec = redis.call('GET', key)
if not rec then return {'missing'} end
if redis.call('EXISTS', k('gj:', id)) == 1 then return {'busy'} end
local h = header(rec)
if h[1] ~= ARGV[2] then return {'stale'} end
local members = k('m:', id)
if redis.call('ZCARD', members) > tonumber(ARGV[3]) then
  redis.call('RENAME', members, k('gx:', id))
  redis.call('SADD', k('gpend'), id)
else
  local uids = redis.call('ZRANGE', members, 0, -1)
  local names = {}
  for i, uid in ipairs(uids) do names[i] = 'ug:' .. uid end
  if not allDeclared(names) then return keysReply(names) end
  for _, uid in ipairs(uids) do redis.call('SREM', k('ug:', uid), id) end
  redis.call('DEL', members)
end
redis.call('UNLINK', k('md:', id), key)
if redis.call('HGET', k('gn'), h[4]) == id then redis.call('HDEL', k('gn'), h[4]) end
mdel(k('ge'), h[5], id)
redis.call('ZREM', k('go'), id)
emitn(4)
return ok(h)
`;
