/**
 * The embedded log's tail (log-tail.ts): followers at the head are answered from it exactly as the file would answer,
 * and never once another connection committed, or from further back than it holds.
 */
import type { RecordedEvent } from '../../services/eventstore/event-store.port';
import { logTail } from '../../services/eventstore/log-tail';
import { oncePerTurn } from '../../services/eventstore/sqlite-log-reader';

const event = (position: number, type = 'a'): RecordedEvent => ({
  id: `e${position}`, type, data: null, streamId: 's', revision: position, position,
  metadata: { userId: null, correlationId: 'c', causationId: 'c', occurredAt: '2026-01-01T00:00:00.000Z', schemaVersion: 1 },
});

/** A log in memory, as the file holds it, and a count of commits by another connection. */
function file(head: number) {
  const log: RecordedEvent[] = Array.from({ length: head }, (_, i) => event(i + 1));
  let foreign = 0;
  return {
    log,
    append: (...types: string[]) => types.forEach((t) => log.push(event(log.length + 1, t))),
    foreignCommit() { foreign++; },
    foreignCommits: () => foreign,
    head: () => log.length,
    readAfter: (after: number, limit: number) => log.filter((e) => e.position > after).slice(0, limit),
  };
}

const positions = (events: RecordedEvent[] | null) => events?.map((e) => e.position) ?? null;

describe('log tail', () => {
  it('answers reads from its start onward as the file does, and nothing from before it', () => {
    const f = file(10);
    const tail = logTail(f.foreignCommits, f.head(), 4);
    expect(tail.readAll(10, 5)).toEqual([]);
    f.append('a', 'b', 'a');
    tail.committed(f.head, f.readAfter);
    expect(positions(tail.readAll(10, 5))).toEqual([11, 12, 13]);
    expect(positions(tail.readAll(11, 1))).toEqual([12]);
    expect(tail.readAll(13, 5)).toEqual([]);
    expect(tail.readAll(9, 5)).toBeNull();
    expect(tail.readAllOf(10, 2, new Set(['a']))).toEqual({ events: [f.log[10]], reached: 12 });
    expect(tail.readAllOf(12, 5, new Set(['b']))).toEqual({ events: [], reached: 13 });
    expect(tail.readAllOf(13, 5, new Set(['a']))).toEqual({ events: [], reached: 13 });
  });

  it('keeps its last events only', () => {
    const f = file(0);
    const tail = logTail(f.foreignCommits, 0, 4);
    for (let i = 0; i < 3; i++) {
      f.append('a', 'a');
      tail.committed(f.head, f.readAfter);
    }
    expect(tail.readAll(1, 10)).toBeNull();
    expect(positions(tail.readAll(2, 10))).toEqual([3, 4, 5, 6]);
  });

  it('starts again at the head when more than it holds is committed at once', () => {
    const f = file(0);
    const tail = logTail(f.foreignCommits, 0, 4);
    f.append('a', 'a', 'a', 'a', 'a');
    tail.committed(f.head, f.readAfter);
    expect(tail.readAll(0, 10)).toBeNull();
    expect(tail.readAll(5, 10)).toEqual([]);
  });

  it('answers nothing once another connection committed, until this one commits again', () => {
    const f = file(2);
    const tail = logTail(f.foreignCommits, 2, 4);
    f.append('a');
    tail.committed(f.head, f.readAfter);
    f.append('b');
    f.foreignCommit();
    expect(tail.readAll(2, 10)).toBeNull();
    expect(tail.readAllOf(3, 10, new Set(['b']))).toBeNull();
    f.append('c');
    tail.committed(f.head, f.readAfter);
    expect(tail.readAll(3, 10)).toBeNull();
    expect(tail.readAll(5, 10)).toEqual([]);
    f.append('d');
    tail.committed(f.head, f.readAfter);
    expect(positions(tail.readAll(5, 10))).toEqual([6]);
  });
});

describe('log tail, asking the file once per event-loop turn', () => {
  it('gives one head for the whole turn, and notices another connection\'s commit in the next one', async () => {
    const f = file(3);
    const tail = logTail(oncePerTurn(f.foreignCommits), 3, 4);
    expect(tail.head()).toBe(3);
    f.append('a');
    f.foreignCommit();
    expect(tail.head()).toBe(3);
    expect(tail.readAll(3, 10)).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(tail.head()).toBeNull();
    expect(tail.readAll(3, 10)).toBeNull();
  });
});
