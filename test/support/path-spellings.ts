/**
 * Other spellings of one request path, as an attacker would try them against anything keyed on the path: letter
 * case, percent-encoding (either hex case) of any character, a trailing slash, doubled slashes, dot segments
 * and encoded slashes. Seeded, so a failure replays (the tests print the seed).
 */

/** mulberry32: a small seeded PRNG, plenty for picking spellings. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const encode = (c: string, lowerHex: boolean) => {
  const hex = [...Buffer.from(c, 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  return lowerHex ? hex : hex.toUpperCase();
};

/**
 * One character, maybe case-flipped (in a fixed segment; in an id another case is another resource), maybe
 * percent-encoded: rarely in a fixed segment (express matches those undecoded: a 404), often in an id.
 */
function spellChar(c: string, rnd: () => number, fixed: boolean): string {
  let out = c;
  if (fixed && /[a-z]/i.test(c) && rnd() < 0.35) out = c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase();
  if (rnd() < (fixed ? 0.02 : 0.15)) out = encode(out, rnd() < 0.5);
  return out;
}

export interface SpellOptions {
  /** Slashes and dot segments are played with too (default true). */
  structural?: boolean;
  /** Segments that are ids: case matters in them (another case is another resource), so it is kept. */
  ids?: string[];
}

/** A random spelling of `path`. */
export function spell(path: string, rnd: () => number, { structural = true, ids = [] }: SpellOptions = {}): string {
  const segments = path.split('/').slice(1);
  let out = '';
  for (const segment of segments) {
    let sep = '/';
    if (structural) {
      const r = rnd();
      if (r < 0.04) sep = '//';
      else if (r < 0.07) sep = rnd() < 0.5 ? '%2F' : '%2f';
      else if (r < 0.1) sep = '/./';
      else if (r < 0.13) sep = '/x/../';
    }
    const fixed = !ids.includes(segment);
    out += sep + [...segment].map((c) => spellChar(c, rnd, fixed)).join('');
  }
  if (rnd() < 0.3) out += '/';
  return out;
}

/** `n` distinct spellings of `path`, the path itself excluded. */
export function spellings(path: string, n: number, seed: number, options?: SpellOptions): string[] {
  const rnd = seeded(seed);
  const found = new Set<string>();
  for (let tries = 0; found.size < n && tries < n * 50; tries++) {
    const s = spell(path, rnd, options);
    if (s !== path) found.add(s);
  }
  return [...found];
}

/** The seed of a fuzz run: DSYNC_FUZZ_SEED (a number, or `random`), else `fixed`. */
export function fuzzSeed(fixed: number): number {
  const given = process.env.DSYNC_FUZZ_SEED;
  if (given === 'random') return Math.floor(Math.random() * 2 ** 31);
  return given !== undefined && /^\d+$/.test(given) ? Number(given) : fixed;
}
