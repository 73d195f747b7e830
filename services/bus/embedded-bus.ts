/**
 * Embedded bus: topics and group offsets in one SQLite file. Each topic is a single partition (0), so every
 * consumer sees a topic in publish order. One process owns the file.
 *
 * The bus holds what it must and no more: a message stays until every group of its topic has consumed it (retention
 * by offsets, a bounded slice at a time in the background), and the pages freed go back to the file system, so the
 * file stays the size of the backlog rather than of the history. A group joining later with `fromBeginning` starts at
 * the oldest message kept, as Kafka's `earliest` does.
 */
import type Database from 'better-sqlite3';
import { checkpointInBackground } from '../sqlite/background-checkpoint';
import { openSqliteFile, reclaimingFreePages, returnFreePages, tableExists } from '../sqlite/sqlite-file';
import type { Bus, BusConsumer, BusMessage, ConsumedMessage } from './bus.port';
import { Backoff } from '../backoff';

const POLL_MS = 200;
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10_000;
const BATCH = 100;
/**
 * How often consumed messages are deleted, how many per topic at most, and how many freed pages go back. A message
 * stays at least RETAIN_MIN_MS after it was published, so a group that joins just after another (as the service's
 * consumers do at start) still finds what the first one already consumed.
 */
const RETAIN_MIN_MS = 30_000;
const RETENTION_EVERY_MS = 1000;
const RETENTION_SOON_MS = 20;
const RETENTION_ROWS = 500;
const RECLAIM_PAGES = 256;

interface Row {
  seq: number;
  key: string;
  value: string;
  headers: string | null;
}

export interface EmbeddedBus extends Bus {
  /** Deletes every message all groups of its topic have consumed (however recent) and gives the pages back, now. */
  compact(): Promise<void>;
}

function openFile(file: string): Database.Database {
  // NORMAL: a published message survives a killed process (WAL). The bus only carries what the event store already
  // holds durably; the relay republishes from its checkpoint, so no fsync per publish is needed.
  const db = openSqliteFile(file, 'NORMAL');
  const before = tableExists(db, 'messages') && !tableExists(db, 'topics'); // a file from before retention
  db.exec(`
    CREATE TABLE IF NOT EXISTS messages (
      topic TEXT NOT NULL, seq INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, headers TEXT,
      PRIMARY KEY (topic, seq)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS group_offsets (
      grp TEXT NOT NULL, topic TEXT NOT NULL, next_seq INTEGER NOT NULL, PRIMARY KEY (grp, topic)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS topics (topic TEXT PRIMARY KEY, next_seq INTEGER NOT NULL) WITHOUT ROWID;
  `);
  if (before) {
    // Offsets go on from where each topic ended; what every group consumed goes now, and the file shrinks once.
    db.exec(`
      INSERT INTO topics (topic, next_seq) SELECT topic, max(seq) + 1 FROM messages GROUP BY topic;
      DELETE FROM messages WHERE seq < (SELECT min(g.next_seq) FROM group_offsets g WHERE g.topic = messages.topic);
    `);
  }
  reclaimingFreePages(db);
  return db;
}

export async function openEmbeddedBus(file: string): Promise<EmbeddedBus> {
  const db = openFile(file);
  const sql = {
    nextSeq: db.prepare('SELECT next_seq FROM topics WHERE topic = ?').pluck(),
    setNextSeq: db.prepare('INSERT INTO topics (topic, next_seq) VALUES (?, ?) ON CONFLICT (topic) DO UPDATE SET next_seq = excluded.next_seq'),
    append: db.prepare('INSERT INTO messages (topic, seq, key, value, headers) VALUES (?, ?, ?, ?, ?)'),
    read: db.prepare(`SELECT seq, key, value, headers FROM messages WHERE topic = ? AND seq >= ? ORDER BY seq LIMIT ${BATCH}`),
    oldest: db.prepare('SELECT min(seq) FROM messages WHERE topic = ?').pluck(),
    committed: db.prepare('SELECT next_seq FROM group_offsets WHERE grp = ? AND topic = ?').pluck(),
    start: db.prepare('INSERT OR IGNORE INTO group_offsets (grp, topic, next_seq) VALUES (?, ?, ?)'),
    commit: db.prepare('UPDATE group_offsets SET next_seq = ? WHERE grp = ? AND topic = ? AND next_seq < ?'),
    topics: db.prepare('SELECT topic FROM topics').pluck(),
    consumedBy: db.prepare('SELECT min(next_seq) FROM group_offsets WHERE topic = ?').pluck(),
    forget: db.prepare('DELETE FROM messages WHERE topic = ? AND seq < ?'),
  };
  const append = db.transaction((topic: string, messages: BusMessage[]) => {
    let seq = (sql.nextSeq.get(topic) as number | undefined) ?? 0;
    for (const m of messages) {
      const headers = m.headers && Object.keys(m.headers).length > 0 ? JSON.stringify(m.headers) : null;
      sql.append.run(topic, seq++, m.key, m.value, headers);
    }
    sql.setNextSeq.run(topic, seq);
  });
  const endOf = (topic: string) => (sql.nextSeq.get(topic) as number | undefined) ?? 0;

  /**
   * Per topic, the end offset as it was at each retention round: what was published before a time. What the file
   * held when opened counts as old (it was published before this process started).
   */
  const marks = new Map<string, Array<{ at: number; end: number }>>();
  for (const topic of sql.topics.all() as string[]) marks.set(topic, [{ at: Number.NEGATIVE_INFINITY, end: endOf(topic) }]);
  const publishedBefore = (topic: string, at: number, now: number): number => {
    const list = marks.get(topic) ?? [];
    list.push({ at: now, end: endOf(topic) });
    while (list.length > 1 && list[1].at <= at) list.shift();
    marks.set(topic, list);
    return list[0].at <= at ? list[0].end : 0;
  };

  /** One bounded round: per topic, messages below every group's offset go (those old enough, unless `all`). */
  const retain = (all = false): boolean => {
    let more = false;
    const now = Date.now();
    for (const topic of sql.topics.all() as string[]) {
      const consumed = sql.consumedBy.get(topic) as number | null;
      const old = publishedBefore(topic, now - RETAIN_MIN_MS, now);
      const floor = consumed === null ? null : all ? consumed : Math.min(consumed, old);
      const oldest = sql.oldest.get(topic) as number | null;
      if (floor === null || oldest === null || oldest >= floor) continue; // no group yet: everything stays
      const upTo = Math.min(floor, oldest + RETENTION_ROWS);
      sql.forget.run(topic, upTo);
      more ||= upTo < floor;
    }
    return returnFreePages(db, RECLAIM_PAGES) || more;
  };

  let closed = false;
  const consumers = new Set<EmbeddedConsumer>();
  /** Who currently consumes each group+topic: a second subscription of a group waits as a standby, as in Kafka. */
  const owners = new Map<string, EmbeddedConsumer>();
  const listeners = new Map<string, Set<() => void>>();

  class EmbeddedConsumer implements BusConsumer {
    /** The handler's last error while a message is being retried. */
    lastError: unknown;
    private stopping = false;
    private wake: () => void = () => undefined;
    private readonly done: Promise<void>;
    private readonly slot: string;

    constructor(
      private readonly group: string,
      private readonly topic: string,
      private readonly handler: (message: ConsumedMessage) => Promise<void>,
    ) {
      this.slot = `${group}\0${topic}`;
      this.done = this.run();
    }

    async stop(): Promise<void> {
      this.stopping = true;
      this.wake();
      await this.done;
      consumers.delete(this);
    }

    private async run(): Promise<void> {
      await new Promise((resolve) => setImmediate(resolve)); // the handler never runs before subscribe returned
      try {
        while (!this.stopping) {
          try {
            await this.step();
          } catch (e) {
            this.lastError = e; // the database failed (disk full...): try again later rather than crash
            await this.sleep(RETRY_MAX_MS, false);
          }
        }
      } finally {
        if (owners.get(this.slot) === this) {
          owners.delete(this.slot);
          notify(this.topic);
        }
      }
    }

    /**
     * Hands a batch to the handler in order, then commits the offset after the last one it finished: once per batch
     * rather than per message (a crash redelivers at most that batch, which at-least-once allows).
     */
    private async step(): Promise<void> {
      if ((owners.get(this.slot) ?? this) !== this) return this.sleep(POLL_MS, true);
      owners.set(this.slot, this);
      const from = sql.committed.get(this.group, this.topic) as number;
      const rows = sql.read.all(this.topic, from) as Row[];
      if (rows.length === 0) return this.sleep(POLL_MS, true);
      let next = from;
      try {
        for (const row of rows) {
          if (this.stopping || !(await this.deliver(row))) return;
          next = row.seq + 1;
        }
      } finally {
        if (next > from && !closed) sql.commit.run(next, this.group, this.topic, next);
      }
    }

    /** Calls the handler until it succeeds; false if the consumer was stopped first. */
    private async deliver(row: Row): Promise<boolean> {
      const backoff = new Backoff(RETRY_FIRST_MS, RETRY_MAX_MS);
      for (;;) {
        try {
          await this.handler({
            topic: this.topic,
            partition: 0,
            offset: String(row.seq),
            key: row.key,
            value: row.value,
            headers: row.headers ? (JSON.parse(row.headers) as Record<string, string>) : {},
          });
          this.lastError = undefined;
          return true;
        } catch (e) {
          this.lastError = e;
        }
        if (this.stopping) return false;
        await this.sleep(backoff.pause(), false);
        if (this.stopping) return false;
      }
    }

    /** Waits `ms`, or less when stopped or (if `onPublish`) when the topic gets a message. */
    private sleep(ms: number, onPublish: boolean): Promise<void> {
      return new Promise((resolve) => {
        const done = () => {
          clearTimeout(timer);
          listeners.get(this.topic)?.delete(done);
          this.wake = () => undefined;
          resolve();
        };
        const timer = setTimeout(done, ms);
        this.wake = done;
        if (onPublish) {
          if (!listeners.has(this.topic)) listeners.set(this.topic, new Set());
          listeners.get(this.topic)!.add(done);
        }
      });
    }
  }

  function notify(topic: string): void {
    for (const wake of [...(listeners.get(topic) ?? [])]) wake();
  }

  function checkOpen(): void {
    if (closed) throw new Error('bus is closed');
  }

  let retentionTimer: NodeJS.Timeout | null = null;
  /** A round with more left to do is soon followed by the next; otherwise after the interval. */
  const scheduleRetention = (delay: number): void => {
    retentionTimer = setTimeout(() => {
      if (closed) return;
      let more = false;
      try {
        more = retain();
      } catch {
        /* busy or failing disk: the next round tries again */
      }
      scheduleRetention(more ? RETENTION_SOON_MS : RETENTION_EVERY_MS);
    }, delay);
    retentionTimer.unref();
  };
  scheduleRetention(RETENTION_EVERY_MS);
  const stopCheckpoints = await checkpointInBackground(file);

  return {
    async publish(topic, messages) {
      checkOpen();
      if (messages.length === 0) return;
      append(topic, messages);
      notify(topic);
    },
    async subscribe(group, topic, handler, options = {}) {
      checkOpen();
      // The starting point is stored at once, so "from the end" means the end at the group's first subscribe.
      const oldest = sql.oldest.get(topic) as number | null;
      sql.start.run(group, topic, options.fromBeginning ? (oldest ?? endOf(topic)) : endOf(topic));
      const consumer = new EmbeddedConsumer(group, topic, handler);
      consumers.add(consumer);
      return consumer;
    },
    async compact() {
      checkOpen();
      while (retain(true));
    },
    async close() {
      if (closed) return;
      await Promise.all([...consumers].map((c) => c.stop()));
      closed = true;
      if (retentionTimer) clearTimeout(retentionTimer);
      await stopCheckpoints();
      db.close();
    },
  };
}
