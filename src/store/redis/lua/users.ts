/**
 * Lua of the user writes (run after prelude.ts' PRELUDE, whose `eventFields` reads a user's event data fields
 * from ARGV): create, update and delete, each with its index changes and its events in one step.
 */

/**
 * ARGV: id, userName, externalId, emails, created, modified, body, fields…, manager id, manager email, roles, custom
 * attributes, nEvents, events… (see eventFields)
 */
export const createUser = `
local id, un, ext, ems = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if redis.call('HSETNX', k('un'), un, id) == 0 then return {'conflict'} end
local h = {'1', ARGV[5], ARGV[6], un, ext, ems}
local n = eventFields(h)
redis.call('SET', k('u:', id), encode(h, ARGV[7]))
redis.call('ZADD', k('uo'), nextSeq(), id)
madd(k('ue'), ext, id)
madd(k('ur'), h[13], id)
for _, e in ipairs(split(ems, LIST)) do madd(k('um'), e, id) end
emitn(n)
return ok(h)
`;

/**
 * ARGV: id, expectedVersion, userName, externalId, emails, now, body, fields…, manager id, manager email, roles, custom
 * attributes, nEvents, events… (see eventFields)
 */
export const updateUser = `
local id, un, ext, ems, now = ARGV[1], ARGV[3], ARGV[4], ARGV[5], ARGV[6]
local key = k('u:', id)
local rec = redis.call('GET', key)
if not rec then return {'missing'} end
local h = header(rec)
if h[1] ~= ARGV[2] then return {'stale'} end
if pendingMembers() then return {'busy'} end
if not rekey(k('un'), h[4], un, id) then return {'conflict'} end
redis.call('INCR', k('uw'))
remulti(k('ue'), h[5], ext, id)
if ems ~= h[6] then
  for _, e in ipairs(split(h[6], LIST)) do mdel(k('um'), e, id) end
  for _, e in ipairs(split(ems, LIST)) do madd(k('um'), e, id) end
end
h[4], h[5], h[6] = un, ext, ems
bump(h, now)
-- A record an older dsync wrote has no manager field.
local manager = h[13] or ''
local n = eventFields(h)
remulti(k('ur'), manager, h[13], id)
redis.call('SET', key, encode(h, ARGV[7]))
emitn(n)
return ok(h)
`;

/**
 * ARGV: id, expectedVersion, now, nGroups, (groupId, groupVersion)…, nEvents, events… The groups are the ones
 * the caller read and declared: the script answers 'stale' unless they are exactly the user's groups now.
 */
export const deleteUser = `
local id, now = ARGV[1], ARGV[3]
local key, groups = k('u:', id), k('ug:', id)
local rec = redis.call('GET', key)
if not rec then return {'missing'} end
local h = header(rec)
if h[1] ~= ARGV[2] then return {'stale'} end
if pendingMembers() then return {'busy'} end
local n = tonumber(ARGV[4])
if redis.call('SCARD', groups) ~= n then return {'stale'} end
-- The removal events carry each group as read: every group must still be that version.
for i = 5, 3 + 2 * n, 2 do
  if redis.call('SISMEMBER', groups, ARGV[i]) == 0 or versionOf(k('g:', ARGV[i])) ~= ARGV[i + 1] then
    return {'stale'}
  end
end
for i = 5, 3 + 2 * n, 2 do
  redis.call('ZREM', k('m:', ARGV[i]), id)
  redis.call('HDEL', k('md:', ARGV[i]), id)
  touch(k('g:', ARGV[i]), now)
end
redis.call('DEL', groups, key)
redis.call('INCR', k('uw'))
if redis.call('HGET', k('un'), h[4]) == id then redis.call('HDEL', k('un'), h[4]) end
mdel(k('ue'), h[5], id)
mdel(k('ur'), h[13] or '', id)
for _, e in ipairs(split(h[6], LIST)) do mdel(k('um'), e, id) end
redis.call('ZREM', k('uo'), id)
emitn(5 + 2 * n)
return ok(h)
`;
