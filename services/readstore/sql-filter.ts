/**
 * Compiles the port's filter and sort into SQL over a collection's key columns (one per indexed field, holding
 * keyOf(value)), so SQLite answers them from its indexes. Conditions on fields without a usable column (never
 * indexed, or holding an array somewhere: MongoDB matches arrays element by element) stay in JavaScript.
 */
import {
  checkField, compareValues, compileFilter, isRangeOp, keyOf, operatorsOf, type Key, type RangeOp, type Sort,
  TYPE_CEILING, TYPE_FLOOR, typeRank,
} from './doc-values';
import type { Condition, Doc, Filter, FindOptions, Scalar } from './read-store.port';

export interface QueryPlan {
  /** SQL conditions ANDed, with their parameters in order; empty when the filter needs no column. */
  where: string[];
  params: Key[];
  /** What the columns cannot decide, checked on each row; null when SQL decides everything. */
  residual: ((doc: Doc) => boolean) | null;
  /** `ORDER BY …` when every sort key has a column; null otherwise (no sort, or a sort done in JavaScript). */
  orderBy: string | null;
  /** The sort cannot be done in SQL. */
  sortInJs: boolean;
  /** The filter matches nothing whatever is stored. */
  never: boolean;
  /** How SQL constrains each field it decides: a value (or a list of values), or a range. */
  constrained: Map<string, 'eq' | 'range' | 'other'>;
}

/** Maps a field to the SQL column holding its key, or null when that field has no usable column. */
export type ColumnOf = (field: string) => string | null;

type Bound = { op: RangeOp; value: Scalar };

/** The tighter of two bounds on the same side (the strict one when they are equal). */
function tighter(a: Bound | null, b: Bound, lower: boolean): Bound {
  if (!a) return b;
  const order = compareValues(b.value, a.value) * (lower ? 1 : -1);
  if (order > 0) return b;
  if (order < 0) return a;
  return b.op === '$gt' || b.op === '$lt' ? b : a;
}

class Builder {
  where: string[] = [];
  params: Key[] = [];
  never = false;
  constrained = new Map<string, 'eq' | 'range' | 'other'>();

  add(sql: string, ...params: Key[]): void {
    this.where.push(sql);
    this.params.push(...params);
  }

  equality(col: string, value: Scalar | null): void {
    if (value === null) this.add(`${col} IS NULL`);
    else this.add(`${col} = ?`, keyOf(value));
  }

  /** True when an index can seek the values (no OR). */
  in(col: string, values: Array<Scalar | null>): boolean {
    const present = values.filter((v) => v !== null);
    const list = `${col} IN (${present.map(() => '?').join(', ')})`;
    if (values.length === 0) this.never = true;
    else if (present.length === values.length) this.add(list, ...present.map(keyOf));
    else if (present.length === 0) this.add(`${col} IS NULL`);
    else {
      this.add(`(${list} OR ${col} IS NULL)`, ...present.map(keyOf));
      return false;
    }
    return true;
  }

  /** Ranges on one field: every operand must be of one type, and the range stays within that type. */
  ranges(col: string, bounds: Bound[]): void {
    const ranks = new Set(bounds.map((b) => typeRank(b.value)));
    if (ranks.size > 1) {
      this.never = true;
      return;
    }
    const [rank] = ranks;
    let lower: Bound | null = null;
    let upper: Bound | null = null;
    for (const b of bounds) {
      if (b.op === '$gt' || b.op === '$gte') lower = tighter(lower, b, true);
      else upper = tighter(upper, b, false);
    }
    if (lower) this.add(`${col} ${lower.op === '$gt' ? '>' : '>='} ?`, keyOf(lower.value));
    else if (TYPE_FLOOR[rank] !== undefined) this.add(`${col} >= ?`, TYPE_FLOOR[rank]);
    if (upper) this.add(`${col} ${upper.op === '$lt' ? '<' : '<='} ?`, keyOf(upper.value));
    else this.add(`${col} < ?`, TYPE_CEILING[rank]);
  }

  condition(col: string, field: string, cond: Condition): void {
    if (cond === null || typeof cond !== 'object') {
      this.constrained.set(field, 'eq');
      return this.equality(col, cond);
    }
    const bounds: Bound[] = [];
    let kind: 'eq' | 'range' | 'other' = 'other';
    for (const [op, c] of operatorsOf(field, cond)) {
      if (op === '$in') {
        if (this.in(col, c as Scalar[])) kind = 'eq';
      } else if (op === '$ne') {
        this.add(c === null ? `${col} IS NOT NULL` : `${col} IS NOT ?`, ...(c === null ? [] : [keyOf(c)]));
      } else if (isRangeOp(op)) {
        bounds.push({ op, value: c as Scalar });
      }
    }
    if (bounds.length) {
      this.ranges(col, bounds);
      if (kind === 'other') kind = 'range';
    }
    this.constrained.set(field, kind);
  }
}

const isKeyable = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);
/** Ranges compare numbers, strings or booleans; anything else in a condition is left to JavaScript. */
const inSql = (cond: Condition) =>
  cond === null || typeof cond !== 'object' || Object.entries(cond).every(([op, c]) =>
    c === undefined || (op === '$in' ? Array.isArray(c) && c.every(isKeyable) : isKeyable(c) && (c !== null || op === '$ne')));

export function planQuery(filter: Filter, options: FindOptions, columnOf: ColumnOf): QueryPlan {
  const sql = new Builder();
  const rest: Filter = {};
  for (const [field, cond] of Object.entries(filter)) {
    checkField(field);
    if (cond === undefined) continue;
    const col = columnOf(field);
    if (col && inSql(cond)) sql.condition(col, field, cond);
    else rest[field] = cond;
  }
  const residual = Object.keys(rest).length ? compileFilter(rest) : null;
  const sort: Sort = options.sort ?? [];
  const sortCols = sort.map(([field]) => columnOf(field));
  const sortInJs = sortCols.some((c) => c === null);
  const orderBy = sort.length && !sortInJs ? `ORDER BY ${sort.map(([, dir], i) => `${sortCols[i]} ${dir === 1 ? 'ASC' : 'DESC'}`).join(', ')}` : null;
  return { where: sql.where, params: sql.params, residual, orderBy, sortInJs, never: sql.never, constrained: sql.constrained };
}

/** Lexicographic: the first differing element decides. */
function outranks(a: number[], b: number[]): boolean {
  const k = a.findIndex((v, i) => v !== b[i]);
  return k !== -1 && a[k] > b[k];
}

/**
 * The declared index that serves a query best, by position, as MongoDB's planner would pick it: the longest run of
 * leading fields held to values, then (for a limited find) one that yields the sort order after that run, then a
 * range on the next field. -1 when no index helps. SQLite is then told to use it, so its plan never depends on
 * statistics it does not have.
 */
export function chooseIndex(indexes: Array<{ fields: string[] }>, plan: QueryPlan, options: FindOptions): number {
  if (plan.constrained.get('_id') === 'eq') return -1; // the primary key finds it
  const sort = (options.sort ?? []).filter(([field]) => plan.constrained.get(field) !== 'eq');
  let best = -1;
  let bestScore = [0, 0, 0];
  indexes.forEach(({ fields }, i) => {
    let eq = 0;
    while (eq < fields.length && plan.constrained.get(fields[eq]) === 'eq') eq++;
    const next = fields[eq];
    const sorted = options.limit && sort.length > 0 && next === sort[0][0] && !plan.sortInJs ? 1 : 0;
    const range = next !== undefined && plan.constrained.get(next) === 'range' ? 1 : 0;
    const score = [eq, sorted, range];
    if (eq + sorted + range > 0 && outranks(score, bestScore)) {
      best = i;
      bestScore = score;
    }
  });
  return best;
}

/**
 * A sorted, limited find whose filter holds `$in` on a field with a column is answered as one query per listed value,
 * merged: each is a range of an index in sort order, so the page costs its size, not every match of every value.
 * Returns the filters to run, or null when the find is not of that shape.
 */
export function splitIn(filter: Filter, options: FindOptions, columnOf: ColumnOf, maxValues = 64): Filter[] | null {
  if (!options.sort?.length || !options.limit) return null;
  for (const [field, cond] of Object.entries(filter)) {
    if (cond === null || typeof cond !== 'object' || !Array.isArray(cond.$in) || !columnOf(field)) continue;
    const values = [...new Set(cond.$in)];
    if (values.length < 2 || values.length > maxValues) continue;
    return values.map((v) => ({ ...filter, [field]: { ...cond, $in: [v] } }));
  }
  return null;
}
