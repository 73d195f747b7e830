/**
 * MongoDB's rules for the port's filter subset, over JSON values: comparisons only between values of the same type,
 * a field holding an array matches when one of its elements does, and one order across types
 * (null/missing < numbers < strings < objects < arrays < booleans). The embedded store evaluates what its SQL
 * indexes cannot answer with these, and encodes index keys so that SQLite's order is this order.
 */
import type { Condition, Doc, Filter, FindOptions, Scalar } from './read-store.port';

export const RANGE_OPS = {
  $gt: (order: number) => order > 0,
  $gte: (order: number) => order >= 0,
  $lt: (order: number) => order < 0,
  $lte: (order: number) => order <= 0,
} as const;
export type RangeOp = keyof typeof RANGE_OPS;
export const isRangeOp = (op: string): op is RangeOp => Object.hasOwn(RANGE_OPS, op);

/** MongoDB's order across types: null/missing < numbers < strings < objects < arrays < booleans. */
export function typeRank(v: unknown): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return 1;
  if (typeof v === 'string') return 2;
  if (typeof v === 'boolean') return 5;
  return Array.isArray(v) ? 4 : 3;
}

/** Code-point order, i.e. the UTF-8 byte order MongoDB (and SQLite's BINARY collation) use. */
function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return utf8Rank(x) - utf8Rank(y);
  }
  return a.length - b.length;
}

/** Moves surrogates (astral code points) above U+E000..U+FFFF. */
function utf8Rank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

/** Objects and arrays are not ordered among themselves (nothing here sorts on them). */
export function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1 || ra === 5) return a === b ? 0 : (a as number) < (b as number) ? -1 : 1;
  if (ra === 2) return compareStrings(a as string, b as string);
  return 0;
}

function equals(v: unknown, c: Scalar | null): boolean {
  if (c === null) return v === null || v === undefined || (Array.isArray(v) && v.includes(null));
  return v === c || (Array.isArray(v) && v.includes(c));
}

/** A range operator matches values of the operand's type only (MongoDB's type bracketing). */
function inRange(v: unknown, c: Scalar, ok: (order: number) => boolean): boolean {
  const one = (x: unknown) => typeRank(x) === typeRank(c) && ok(compareValues(x, c));
  return one(v) || (Array.isArray(v) && v.some(one));
}

export function checkField(field: string): void {
  if (field.startsWith('$') || field.includes('.')) throw new Error(`filter field "${field}": only top-level fields`);
}

/** The operators of a condition that is not a bare value, validated; undefined operands are left out. */
export function operatorsOf(field: string, cond: Exclude<Condition, Scalar | null>): Array<[string, Scalar | null | Scalar[]]> {
  const out: Array<[string, Scalar | null | Scalar[]]> = [];
  for (const [op, c] of Object.entries(cond)) {
    if (c === undefined) continue;
    if (op === '$in') {
      if (!Array.isArray(c)) throw new Error(`filter on "${field}": $in needs an array`);
    } else if (op !== '$ne' && !isRangeOp(op)) {
      throw new Error(`filter on "${field}": unsupported operator ${op}`);
    }
    out.push([op, c as Scalar | null | Scalar[]]);
  }
  return out;
}

function compileCondition(field: string, cond: Condition): (doc: Doc) => boolean {
  if (cond === null || typeof cond !== 'object') return (doc) => equals(doc[field], cond);
  const tests = operatorsOf(field, cond).map(([op, c]): ((v: unknown) => boolean) => {
    if (op === '$in') return (v) => (c as Scalar[]).some((x) => equals(v, x));
    if (op === '$ne') return (v) => !equals(v, c as Scalar | null);
    return (v) => inRange(v, c as Scalar, RANGE_OPS[op as RangeOp]);
  });
  return (doc) => tests.every((test) => test(doc[field]));
}

/** The filter as a predicate (validating it); fields whose condition is undefined are left out. */
export function compileFilter(filter: Filter): (doc: Doc) => boolean {
  const parts: Array<(doc: Doc) => boolean> = [];
  for (const [field, cond] of Object.entries(filter)) {
    checkField(field);
    if (cond !== undefined) parts.push(compileCondition(field, cond));
  }
  return (doc) => parts.every((p) => p(doc));
}

/** An array sorts by its smallest element ascending and its largest descending, as in MongoDB. */
function sortValue(v: unknown, dir: 1 | -1): unknown {
  if (!Array.isArray(v)) return v;
  if (v.length === 0) return undefined;
  return v.reduce((best, x) => (compareValues(x, best) * dir < 0 ? x : best));
}

export type Sort = NonNullable<FindOptions['sort']>;

/** Orders two documents by the sort keys (0 when they tie on every key). */
export function compareDocs(a: Doc, b: Doc, sort: Sort): number {
  for (const [field, dir] of sort) {
    const c = compareValues(sortValue(a[field], dir), sortValue(b[field], dir));
    if (c !== 0) return c * dir;
  }
  return 0;
}

export function sortDocs<T extends Doc>(docs: T[], sort: Sort): T[] {
  return docs.sort((a, b) => compareDocs(a, b, sort));
}

/** Index key of a value: SQLite orders NULL < numbers < TEXT < BLOB, so the types it lacks become tagged BLOBs. */
export type Key = null | number | bigint | string | Buffer;
const TAG = { object: 0x03, array: 0x04, false: 0x06, true: 0x07 } as const;
/**
 * Bounds that keep a one-sided range within the operand's type (by typeRank): numbers need no floor (NULL never
 * compares), the least string is '' and the least BLOB is X''.
 */
export const TYPE_FLOOR: Record<number, Key> = { 2: '', 5: Buffer.from([TAG.false]) };
export const TYPE_CEILING: Record<number, Key> = { 1: '', 2: Buffer.alloc(0), 5: Buffer.from([TAG.true + 1]) };

/** The key of a value as JSON holds it (so NaN is null, as in the stored document). */
export function keyOf(v: unknown): Key {
  switch (typeof v) {
    case 'number':
      if (!Number.isFinite(v)) return null;
      // Integers are stored as SQLite integers (a few bytes) rather than 8-byte reals.
      return Number.isSafeInteger(v) ? BigInt(v) : v;
    case 'string':
      return v;
    case 'boolean':
      return Buffer.from([v ? TAG.true : TAG.false]);
    case 'object':
      if (v === null) return null;
      return Buffer.concat([Buffer.from([Array.isArray(v) ? TAG.array : TAG.object]), Buffer.from(JSON.stringify(v))]);
    default:
      return null; // undefined, functions, symbols: JSON leaves the field out
  }
}

/** A field's value as the stored JSON holds it (a Date becomes its string, an undefined field is missing). */
export function storedValue(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  const json = JSON.stringify(v);
  return json === undefined ? undefined : JSON.parse(json);
}
