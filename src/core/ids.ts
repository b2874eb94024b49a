import { randomBytes, randomUUID } from 'node:crypto';

/** Resource and directory ids: random UUIDs (what IdPs and the SPEC's samples expect). */
export const newId = (): string => randomUUID();

/** URL-safe random secret (SCIM bearer tokens, generated webhook secrets). */
export const newSecret = (bytes = 24): string => randomBytes(bytes).toString('base64url');

let lastMs = 0;
let seq = 0;
/**
 * Time-ordered event id (`evt_` + 12 hex ms + 4 hex sequence + 12 hex random): sorts by creation time,
 * contains no `.` (Standard Webhooks forbids it in message ids).
 */
export function newEventId(now = Date.now()): string {
  if (now === lastMs) seq = (seq + 1) & 0xffff;
  else {
    lastMs = now;
    seq = 0;
  }
  return `evt_${now.toString(16).padStart(12, '0')}${seq.toString(16).padStart(4, '0')}${randomBytes(6).toString('hex')}`;
}
