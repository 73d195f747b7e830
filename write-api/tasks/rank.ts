/**
 * Ranks order tasks inside a list: strings compared as plain strings (code-point order, which MongoDB and the
 * embedded store share). A rank is a fixed-width base-62 integer part, then an optional fraction. Appending steps
 * the integer part, so a list that only grows at its end never grows its keys; inserting between two neighbours takes
 * the integer midpoint while one exists and a fraction after that. When no short enough key fits, the caller spreads
 * the whole list again (`spread`).
 */
const DIGITS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE = DIGITS.length;
const WIDTH = 6;
const TOP = BASE ** WIDTH - 1;
/** Gap left by appends and prepends: room for about seventeen halvings before a fraction is needed. */
const STEP = BASE ** 3;
const MIDDLE = Math.floor(BASE / 2) * BASE ** (WIDTH - 1);

/** Longer ranks are refused by `rankBetween`: the caller re-spreads the list instead. */
export const MAX_RANK_LENGTH = 24;

const digit = (s: string, i: number) => (i < s.length ? DIGITS.indexOf(s[i]) : 0);

function encode(n: number): string {
  let out = '';
  for (let i = 0; i < WIDTH; i++) {
    out = DIGITS[n % BASE] + out;
    n = Math.floor(n / BASE);
  }
  return out;
}

function decode(rank: string): number {
  let n = 0;
  for (let i = 0; i < WIDTH; i++) n = n * BASE + digit(rank, i);
  return n;
}

/**
 * A fraction strictly between `low` and `high` (digit strings read as 0.xyz; '' is 0 and null is 1), never ending
 * in the zero digit, so there is always room below it too.
 */
function fractionBetween(low: string, high: string | null): string {
  let prefix = '';
  for (let i = 0; ; i++) {
    const lo = digit(low, i);
    const hi = high === null ? BASE : digit(high, i);
    if (lo === hi) {
      prefix += DIGITS[lo];
      continue;
    }
    if (hi - lo >= 2) return prefix + DIGITS[Math.floor((lo + hi) / 2)];
    return prefix + DIGITS[lo] + fractionBetween(low.slice(i + 1), null);
  }
}

/**
 * A rank strictly between two neighbours (null: no neighbour on that side), or null when none of at most
 * MAX_RANK_LENGTH characters exists (or the neighbours are out of order).
 */
export function rankBetween(before: string | null, after: string | null): string | null {
  if (before !== null && after !== null && before >= after) return null;
  const lo = before === null ? -1 : decode(before);
  const hi = after === null ? TOP + 1 : decode(after);
  let rank: string;
  if (hi - lo >= 2) {
    if (before === null && after === null) rank = encode(MIDDLE);
    else if (before === null) rank = encode(Math.max(lo + 1, hi - STEP));
    else if (after === null) rank = encode(Math.min(hi - 1, lo + STEP));
    else rank = encode(Math.floor((lo + hi) / 2));
  } else if (before === null) {
    // `after` sits on integer 0: only a fraction below its own is left.
    const fraction = after!.slice(WIDTH);
    if (fraction === '') return null;
    rank = encode(0) + fractionBetween('', fraction);
  } else {
    const high = after !== null && decode(after) === lo ? after.slice(WIDTH) : null;
    rank = before.slice(0, WIDTH) + fractionBetween(before.slice(WIDTH), high);
  }
  return rank.length <= MAX_RANK_LENGTH ? rank : null;
}

/** `count` ranks in ascending order, evenly spaced over the whole range. */
export function spread(count: number): string[] {
  const gap = Math.floor(TOP / (count + 1));
  return Array.from({ length: count }, (_, i) => encode((i + 1) * gap));
}
