import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CommandHandler } from '../../services/commands/command-handler';
import type { Decider } from '../../services/commands/decider';
import { ApiError, conflict } from '../../services/errors';
import { openSqliteEventStore } from '../../services/eventstore/sqlite-event-store';
import type { EventStore } from '../../services/eventstore/event-store.port';
import { newId } from '../../services/ids';

/** A tiny aggregate: named slots that can each be taken once. */
type Cmd = { take: string };
type Ev = { type: 'slot.taken'; data: { slot: string } };
const slots: Decider<Cmd, Ev, Set<string>> = {
  initialState: () => new Set(),
  decide: (c, s) => {
    if (s.has(c.take)) throw conflict('slot_taken', `${c.take} is taken`);
    return [{ type: 'slot.taken', data: { slot: c.take } }];
  },
  evolve: (s, e) => s.add(e.data.slot),
};

const ctx = (commandId = newId()) => ({ userId: null, commandId, correlationId: 'test' });

describe('command handler', () => {
  let store: EventStore;
  beforeEach(async () => {
    store = await openSqliteEventStore(path.join(mkdtempSync(path.join(tmpdir(), 'handler-')), 'events.sqlite'));
  });
  afterEach(() => store.close());

  it('batches concurrent commands on one stream and answers each with its own position', async () => {
    const handler = new CommandHandler(store);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => handler.handle('slots-1', slots, { take: `s${i}` }, ctx())));
    const events = await store.readStream('slots-1');
    expect(events).toHaveLength(50);
    const byCommand = new Map(events.map((e) => [(e.data as { slot: string }).slot, e.position]));
    results.forEach((r, i) => expect(r.position).toBe(byCommand.get(`s${i}`)));
  });

  it('lets exactly one of many conflicting commands win, in one process and across two', async () => {
    const a = new CommandHandler(store);
    const b = new CommandHandler(store); // a second process: its own cache, the same log
    const attempts = Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).handle('slots-2', slots, { take: 'same' }, ctx()));
    const settled = await Promise.allSettled(attempts);
    expect(settled.filter((s) => s.status === 'fulfilled')).toHaveLength(1);
    for (const s of settled) {
      if (s.status === 'rejected') expect((s.reason as ApiError).code).toBe('slot_taken');
    }
    expect(await store.readStream('slots-2')).toHaveLength(1);
  });

  it('appends nothing twice when a command is retried with the same command id', async () => {
    const notes: Decider<{ text: string }, { type: 'note.added'; data: { text: string } }, number> = {
      initialState: () => 0,
      decide: (c) => [{ type: 'note.added', data: { text: c.text } }],
      evolve: (n) => n + 1,
    };
    const id = newId();
    const first = await new CommandHandler(store).handle('notes-1', notes, { text: 'hi' }, ctx(id));
    // The retry runs in "another process" (a fresh cache) that has not seen the first append's answer.
    const retry = await new CommandHandler(store).handle('notes-1', notes, { text: 'hi' }, ctx(id));
    expect(await store.readStream('notes-1')).toHaveLength(1);
    expect(retry.position).toBe(first.position);
  });

  it('serves load() between batches with a consistent state', async () => {
    const handler = new CommandHandler(store);
    const writes = Array.from({ length: 20 }, (_, i) => handler.handle('slots-4', slots, { take: `s${i}` }, ctx()));
    const reads = Array.from({ length: 5 }, () => handler.load('slots-4', slots).then(({ state, revision }) => [state.size, revision + 1]));
    await Promise.all(writes);
    for (const [size, count] of await Promise.all(reads)) expect(size).toBe(count);
    expect((await handler.load('slots-4', slots)).state.size).toBe(20);
  });
});

describe('command handler, when an append fails for one command of a batch', () => {
  it('gives every command its own outcome, never another command\'s error', async () => {
    const store = await openSqliteEventStore(path.join(mkdtempSync(path.join(tmpdir(), 'handler-')), 'events.sqlite'));
    // A store that refuses any append holding the slot "poison" (a failure that is not a revision conflict).
    const refusing: EventStore = {
      ...store,
      append: (stream, events, expected) =>
        events.some((e) => (e.data as { slot: string }).slot === 'poison')
          ? Promise.reject(new Error('refused: poison'))
          : store.append(stream, events, expected),
    };
    try {
      const handler = new CommandHandler(refusing);
      // The first command holds the lane, so the next three are decided and appended as one batch.
      const first = handler.handle('slots-5', slots, { take: 'first' }, ctx());
      const batch = ['before', 'poison', 'after'].map((take) => handler.handle('slots-5', slots, { take }, ctx()));
      const settled = await Promise.allSettled([first, ...batch]);
      expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
      expect(((settled[2] as PromiseRejectedResult).reason as Error).message).toBe('refused: poison');
      const stored = (await store.readStream('slots-5')).map((e) => (e.data as { slot: string }).slot);
      expect(stored).toEqual(['first', 'before', 'after']);
    } finally {
      await store.close();
    }
  });
});
