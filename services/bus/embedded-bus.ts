/**
 * Embedded bus: topics and group offsets in one SQLite file. Each topic is a single partition (0), so every
 * consumer sees a topic in publish order. One process owns the file.
 */
import Database from 'better-sqlite3';
import type { Bus, BusConsumer, BusMessage, ConsumedMessage } from './bus.port';

const POLL_MS = 200;
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10_000;
const BATCH = 100;

interface Row {
  seq: number;
  key: string;
  value: string;
  headers: string | null;
}

export async function openEmbeddedBus(file: string): Promise<Bus> {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // NORMAL: a published message survives a killed process (WAL). The bus only carries what the event store already
  // holds durably; the relay republishes from its checkpoint, so no fsync per publish is needed.
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS messages (
      topic TEXT NOT NULL, seq INTEGER NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, headers TEXT,
      PRIMARY KEY (topic, seq)
    ) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS group_offsets (
      grp TEXT NOT NULL, topic TEXT NOT NULL, next_seq INTEGER NOT NULL, PRIMARY KEY (grp, topic)
    ) WITHOUT ROWID;
  `);
  // Offset commits go through a second connection without fsync: they survive a killed process (WAL), and one lost
  // to a power cut only means a redelivery, which at-least-once allows. An fsync per handled message would cap
  // consumption at a few thousand messages a second.
  const offsetsDb = new Database(file);
  offsetsDb.pragma('synchronous = NORMAL');
  const sql = {
    // Offsets count from 0 per topic; computing the next one inside the insert keeps it atomic.
    append: db.prepare(
      `INSERT INTO messages (topic, seq, key, value, headers)
       SELECT @topic, coalesce(max(seq) + 1, 0), @key, @value, @headers FROM messages WHERE topic = @topic`,
    ),
    end: db.prepare('SELECT coalesce(max(seq) + 1, 0) AS next FROM messages WHERE topic = ?').pluck(),
    read: db.prepare('SELECT seq, key, value, headers FROM messages WHERE topic = ? AND seq >= ? ORDER BY seq LIMIT ?'),
    committed: db.prepare('SELECT next_seq FROM group_offsets WHERE grp = ? AND topic = ?').pluck(),
    start: db.prepare('INSERT OR IGNORE INTO group_offsets (grp, topic, next_seq) VALUES (?, ?, ?)'),
    commit: offsetsDb.prepare('UPDATE group_offsets SET next_seq = ? WHERE grp = ? AND topic = ?'),
  };
  const append = db.transaction((topic: string, messages: BusMessage[]) => {
    for (const m of messages) {
      const headers = m.headers && Object.keys(m.headers).length > 0 ? JSON.stringify(m.headers) : null;
      sql.append.run({ topic, key: m.key, value: m.value, headers });
    }
  });

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

    private async step(): Promise<void> {
      if ((owners.get(this.slot) ?? this) !== this) return this.sleep(POLL_MS, true);
      owners.set(this.slot, this);
      const rows = sql.read.all(this.topic, sql.committed.get(this.group, this.topic), BATCH) as Row[];
      if (rows.length === 0) return this.sleep(POLL_MS, true);
      for (const row of rows) {
        if (this.stopping || !(await this.deliver(row))) return;
        sql.commit.run(row.seq + 1, this.group, this.topic);
      }
    }

    /** Calls the handler until it succeeds; false if the consumer was stopped first. */
    private async deliver(row: Row): Promise<boolean> {
      for (let delay = RETRY_FIRST_MS; ; delay = Math.min(delay * 2, RETRY_MAX_MS)) {
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
        await this.sleep(delay, false);
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
      sql.start.run(group, topic, options.fromBeginning ? 0 : sql.end.get(topic));
      const consumer = new EmbeddedConsumer(group, topic, handler);
      consumers.add(consumer);
      return consumer;
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...consumers].map((c) => c.stop()));
      offsetsDb.close();
      db.close();
    },
  };
}
