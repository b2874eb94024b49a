import { randomBytes, randomUUID } from 'node:crypto';

/** Resource and directory ids: random UUIDs (what IdPs and the API's samples expect). */
export const newId = (): string => randomUUID();

/** URL-safe random secret (SCIM bearer tokens, API keys). */
export const newSecret = (bytes = 24): string => randomBytes(bytes).toString('base64url');

/** Standard Webhooks secret format: `whsec_` + base64 of 24 random bytes. */
export const newWebhookSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

let lastMs = 0;
let seq = 0;
/** `evt_` + the ms + the process, for `lastMs`: made once per ms (a member PATCH of 25 takes 25 ids in one). */
let prefix = '';
/**
 * Random per process: with the time and a sequence it makes ids unique across replicas without a random draw per id.
 */
const PROCESS = randomBytes(6).toString('hex');
/**
 * Time-ordered event id (`evt_` + 12 hex ms + 12 hex process + 6 hex sequence): sorts by creation time,
 * contains no `.` (Standard Webhooks forbids it in message ids).
 */
export function newEventId(now = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    seq = 0;
    prefix = '';
  } else seq++;
  // Past 16M ids in one ms the sequence borrows the next ms: ids stay unique and ordered.
  if (seq > 0xffffff) {
    lastMs++;
    seq = 0;
    prefix = '';
  }
  if (prefix === '') prefix = `evt_${lastMs.toString(16).padStart(12, '0')}${PROCESS}`;
  return prefix + seq.toString(16).padStart(6, '0');
}
