/** Comparing secrets (SCIM bearer tokens, API keys) without telling their content or length through timing. */
import { hash, timingSafeEqual } from 'node:crypto';

/**
 * A secret's SHA-256, compared instead of the secret: timingSafeEqual needs equal lengths, and comparing lengths
 * would leak them. One-shot `hash` (no Hash object: a SCIM request pays it on every call).
 */
export const secretDigest = (s: string): Buffer => hash('sha256', s, 'buffer');

/** Whether `presented` equals `expected`, in constant time; an empty secret never matches. */
export function sameSecret(presented: string, expected: string): boolean {
  return (
    presented.length > 0 && expected.length > 0 && timingSafeEqual(secretDigest(presented), secretDigest(expected))
  );
}
