/** Comparing secrets (SCIM bearer tokens, API keys) without telling their content or length through timing. */
import { createHash, timingSafeEqual } from 'node:crypto';

// Digests first: timingSafeEqual needs equal lengths, and comparing lengths would leak them.
const digest = (s: string): Buffer => createHash('sha256').update(s).digest();

/** Whether `presented` equals `expected`, in constant time; an empty secret never matches. */
export function sameSecret(presented: string, expected: string): boolean {
  return presented.length > 0 && expected.length > 0 && timingSafeEqual(digest(presented), digest(expected));
}
