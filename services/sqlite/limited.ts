import type Database from 'better-sqlite3';

/** Statements of one query per limit value made so far; a limit beyond these is made again when next used. */
const KEPT = 32;

/**
 * One prepared statement per LIMIT value, the value written into the SQL (`limitClause` is '' for no limit). SQLite
 * prepares a statement again each time a bound LIMIT parameter is set, since the planner uses its value: that cost
 * about 10 µs per query on the log's joined reads, several times the query itself.
 */
export function limitedStatements(
  db: Database.Database,
  sql: (limitClause: string) => string,
  prepare: (statement: Database.Statement) => Database.Statement = (s) => s,
): (limit: number) => Database.Statement {
  const made = new Map<number, Database.Statement>();
  return (limit) => {
    if (!Number.isSafeInteger(limit)) throw new Error(`a limit must be an integer (got ${limit})`);
    const n = Math.max(limit, -1);
    let statement = made.get(n);
    if (!statement) {
      if (made.size >= KEPT) made.clear();
      statement = prepare(db.prepare(sql(n < 0 ? '' : ` LIMIT ${n}`)));
      made.set(n, statement);
    }
    return statement;
  };
}
