/**
 * Where each id's row is in the collections being built (made unkeyed: no id index until they are keyed), for tables
 * this process made and wrote alone. With it, a write of an id already there replaces that row and a read by id finds
 * it by rowid, so a projection that reads or rewrites its own documents while it is built leaves the table unkeyed
 * (appends stay sequential; keying it first made every later write a random insert into the id index), and keying
 * it at the end is one sort with no duplicates to remove.
 *
 * Ids are held as 31-bit hashes (no string kept), each with the rowids of the rows whose ids share it: the caller
 * checks a row's id before taking it. A table stops being tracked (its writes append, and keying removes the
 * duplicates, as without this) once the rows tracked in all tables would pass `budget`, about 40 bytes each.
 */
export const TRACKED_ROWS_BUDGET = 1_000_000;

/** FNV-1a over the UTF-16 code units, folded to 31 bits (a small integer to V8). */
export function rowHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) h = Math.imul(h ^ id.charCodeAt(i), 0x01000193);
  return h >>> 1;
}

export class BuildingRows {
  private readonly tables = new Map<number, Map<number, number | number[]>>();
  private rows = 0;

  constructor(
    private readonly budget = TRACKED_ROWS_BUDGET,
    private readonly hash: (id: string) => number = rowHash,
  ) {}

  /** Starts tracking a table just made, empty. */
  track(table: number): void {
    this.forget(table);
    this.tables.set(table, new Map());
  }

  tracks(table: number): boolean {
    return this.tables.has(table);
  }

  /** Rowids that may hold `id` (those of ids with its hash), for the caller to check. */
  candidates(table: number, id: string): readonly number[] {
    const found = this.tables.get(table)?.get(this.hash(id));
    return found === undefined ? [] : typeof found === 'number' ? [found] : found;
  }

  /** A row appended for an id not in the table yet. Past the budget, the table is no longer tracked. */
  added(table: number, id: string, rowid: number): void {
    const rows = this.tables.get(table);
    if (!rows) return;
    if (this.rows >= this.budget) return this.forget(table);
    const key = this.hash(id);
    const found = rows.get(key);
    rows.set(key, found === undefined ? rowid : typeof found === 'number' ? [found, rowid] : [...found, rowid]);
    this.rows++;
  }

  /** The table is keyed, dropped, or no longer known to hold only what was tracked. */
  forget(table: number): void {
    const rows = this.tables.get(table);
    if (!rows) return;
    for (const found of rows.values()) this.rows -= typeof found === 'number' ? 1 : found.length;
    this.tables.delete(table);
  }

  /** After a rollback or another connection's commit: nothing is known any more. */
  clear(): void {
    this.tables.clear();
    this.rows = 0;
  }
}
