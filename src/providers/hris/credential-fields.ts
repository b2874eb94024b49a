/** The pieces every provider's credentials are made of, checked the same way. */
import { z } from 'zod';

/** A key or secret as it travels in a header: visible ASCII, no spaces. */
export const secretField = (field: string, max = 512) =>
  z
    .string({ error: `${field} is required` })
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`)
    .regex(/^[\x21-\x7e]+$/, `${field} must be visible ASCII characters (no spaces)`);
