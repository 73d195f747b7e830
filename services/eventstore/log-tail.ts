/**
 * The newest events of the embedded log, as read back from the file right after this process committed them. Every
 * follower at the head (each projection, the relay, the bus) asks for those same few events after each commit; they
 * are answered from here instead of one query each. The tail is only trusted while no other connection committed to
 * the file (PRAGMA data_version): then its last event is the log's head. Otherwise readers go to the file, and the
 * tail starts again empty at the head after this process's next commit. It holds events as stored (sealed).
 */
import type { RecordedEvent } from './event-store.port';

/** Events kept: a follower further behind reads its page from the file. */
export const TAIL_EVENTS = 2048;

export interface LogTail {
  /** After a commit: `readAfter(head)` reads the file's events past the tail's end. */
  committed(head: () => number, readAfter: (after: number, limit: number) => RecordedEvent[]): void;
  /** The log's head, or null as for readAll: followers wait for it to move past what they read from here. */
  head(): number | null;
  /** As EventStore.readAll, or null when the tail cannot tell (too far behind, or another connection committed). */
  readAll(after: number, limit: number): RecordedEvent[] | null;
  /** As EventStore.readAllOf, or null as for readAll. */
  readAllOf(after: number, limit: number, types: ReadonlySet<string>): { events: RecordedEvent[]; reached: number } | null;
}

/**
 * `foreignCommits` counts commits noticed from other connections (commitsByOthers, asked at most once per event-loop
 * turn: every follower reads after each commit); `head` is the log's head now.
 */
export function logTail(foreignCommits: () => number, head: number, size = TAIL_EVENTS): LogTail {
  let events: RecordedEvent[] = [];
  /** The position the tail starts after: every event of the log in (start, last] is in `events`. */
  let start = head;
  let seen = foreignCommits();
  let trusted = true;

  const end = () => (events.length ? events[events.length - 1].position : start);
  const stillTrusted = (): boolean => {
    if (trusted && foreignCommits() !== seen) trusted = false;
    return trusted;
  };
  /** Index of the first event past `after`; -1 when the tail does not reach back that far. */
  const firstAfter = (after: number): number => {
    if (after < start || !stillTrusted()) return -1;
    let lo = 0;
    let hi = events.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (events[mid].position <= after) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };

  /** Empty again, starting at the head. */
  const restart = (headNow: () => number) => {
    events = [];
    start = headNow();
  };

  return {
    committed(headNow, readAfter) {
      const commits = foreignCommits();
      if (!trusted || commits !== seen) {
        seen = commits;
        trusted = true;
        return restart(headNow);
      }
      const added = readAfter(end(), size);
      // More than the tail holds was committed at once: start again at the head.
      if (added.length === size) return restart(headNow);
      events.push(...added);
      if (events.length > size) {
        const dropped = events.splice(0, events.length - size);
        start = dropped[dropped.length - 1].position;
      }
    },
    head: () => (stillTrusted() ? end() : null),
    readAll(after, limit) {
      const from = firstAfter(after);
      return from === -1 ? null : events.slice(from, from + limit);
    },
    readAllOf(after, limit, types) {
      const from = firstAfter(after);
      if (from === -1) return null;
      const window = events.slice(from, from + limit);
      return { events: window.filter((e) => types.has(e.type)), reached: window.length ? window[window.length - 1].position : after };
    },
  };
}
