/**
 * Lua of the writes into or beside a directory's record outside SCIM: a webhook disabled, the Google tokens saved,
 * a pull sync's small record put, each only while the record is there and as the caller read it. Small commands,
 * each registered on the client by name (connection.ts).
 */

/** Compare-and-set on the directory record (cjson: the record has no arrays, so encoding is faithful). */
const DISABLE_WEBHOOK = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local d = cjson.decode(raw)
if type(d.webhook) ~= 'table' or d.webhook.endpoint ~= ARGV[1] then return 0 end
d.webhook_disabled_at = ARGV[2]
redis.call('SET', KEYS[1], cjson.encode(d))
return 1`;

/** Compare-and-set of the Google token fields alone, while the refresh token is still ARGV[1] ('' = none). */
const SAVE_GOOGLE_TOKENS = `
local raw = redis.call('GET', KEYS[1])
if not raw then return 0 end
local d = cjson.decode(raw)
if (d.google_refresh_token or '') ~= ARGV[1] then return 0 end
d.google_access_token = ARGV[2]
if ARGV[3] ~= '' then d.google_refresh_token = ARGV[3] end
d.updated_at = ARGV[4]
redis.call('SET', KEYS[1], cjson.encode(d))
return 1`;

/** Sets (or, with an empty value, deletes) KEYS[2] only while the directory record KEYS[1] exists. */
const PUT_SYNC_RECORD = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if ARGV[1] == '' then redis.call('DEL', KEYS[2]) else redis.call('SET', KEYS[2], ARGV[1]) end
return 1`;

export const DIRECTORY_COMMANDS = {
  dsyncDisableWebhook: { keys: 1, lua: DISABLE_WEBHOOK },
  dsyncSaveGoogleTokens: { keys: 1, lua: SAVE_GOOGLE_TOKENS },
  dsyncPutSyncRecord: { keys: 2, lua: PUT_SYNC_RECORD },
};
