/**
 * The value types of the environment variables (durations, booleans, node lists, proxy settings) as zod schemas:
 * config.ts builds its schema from them; apart so the schema reads as the list of variables it is.
 */
import { z } from 'zod';
import { parseNodeList } from './store/redis/target.js';

const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `5s`, `30m`, `2h`, `1d`, `250ms` → milliseconds. */
export function parseDuration(text: string): number {
  const m = DURATION.exec(text.trim());
  if (!m) throw new Error(`invalid duration "${text}" (use e.g. 500ms, 5s, 30m, 2h, 1d)`);
  return Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
}

export const positiveInt = (name: string) =>
  z.coerce
    .number({ error: `${name} must be a number` })
    .int(`${name} must be an integer`)
    .positive(`${name} must be > 0`);

export const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

export const durationList = z.string().transform((text, ctx) => {
  try {
    const list = text.split(',').map((s) => parseDuration(s));
    if (list.length === 0) throw new Error('empty schedule');
    return list;
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
    return z.NEVER;
  }
});

/** A duration such as `15s`; a bad value is reported as a config issue naming the variable. */
export const duration = z.string().transform((text, ctx) => {
  try {
    return parseDuration(text);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
    return z.NEVER;
  }
});

/** `host:port,host:port` (or redis[s]:// URLs): kept as given, each entry checked. */
export const nodeList = z.string().transform((text, ctx) => {
  try {
    parseNodeList(text);
    return text
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
  } catch (err) {
    ctx.addIssue({ code: 'custom', message: (err as Error).message });
    return z.NEVER;
  }
});

/** Milliseconds as a bare number, or a duration such as `2s`. */
export const millis = z.string().transform((text, ctx) => {
  if (/^\d+$/.test(text.trim())) return Number(text);
  try {
    return parseDuration(text);
  } catch {
    ctx.addIssue({ code: 'custom', message: `invalid duration "${text}" (milliseconds, or e.g. 500ms, 2s)` });
    return z.NEVER;
  }
});

/** Express's `trust proxy`: `true`/`false`, a number of hops, or addresses, CIDRs and the names express knows. */
export const trustProxy = z.string().transform((text): boolean | number | string[] => {
  const t = text.trim();
  if (t === 'true' || t === 'false') return t === 'true';
  if (/^\d+$/.test(t)) return Number(t);
  return t
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
});

/** A duration that must be > 0 (the delivery options refuse 0: delivery/options.ts). */
export const positiveDuration = duration.refine((ms) => ms > 0, 'must be longer than 0');
