/**
 * Group commit for the embedded read store: the writes of one event-loop turn share a transaction, committed at
 * setImmediate. Each write resolves once its commit is done, so an acknowledged write is in the WAL (it survives a
 * killed process), and commits land in the order of the writes.
 */
import type Database from 'better-sqlite3';

export class GroupCommit {
  private waiting: Array<{ resolve: () => void; reject: (e: unknown) => void }> = [];
  private scheduled = false;
  private closed = false;

  constructor(
    private readonly db: Database.Database,
    /** After a rollback: what the process holds about the database must be read again. */
    private readonly rolledBack: () => void,
  ) {}

  /** Runs `change` (synchronous statements) in the current transaction; resolves with its result once committed. */
  run<R>(change: () => R): Promise<R> {
    if (!this.db.inTransaction) this.db.exec('BEGIN');
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.commit());
    }
    let result: R;
    try {
      result = change();
    } catch (e) {
      // A failed statement leaves the transaction as it was, unless SQLite had to roll it back (disk full, I/O).
      if (!this.db.inTransaction) this.fail(e);
      return Promise.reject(e);
    }
    return new Promise((resolve, reject) => this.waiting.push({ resolve: () => resolve(result), reject }));
  }

  /** Commits what is pending; nothing is committed after this. */
  close(): void {
    this.commit();
    this.closed = true;
  }

  private commit(): void {
    this.scheduled = false;
    if (this.closed) return;
    if (this.db.inTransaction) {
      try {
        this.db.exec('COMMIT');
      } catch (e) {
        this.fail(e);
        return;
      }
    }
    for (const w of this.waiting.splice(0)) w.resolve();
  }

  private fail(e: unknown): void {
    if (this.db.inTransaction) this.db.exec('ROLLBACK');
    this.rolledBack();
    for (const w of this.waiting.splice(0)) w.reject(e);
  }
}
