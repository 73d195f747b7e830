/**
 * Reminders due (docs/reminders.md): per event with reminders, one document per (occurrence, reminder) due within a
 * bounded horizon, indexed by due instant, which the reminder worker (services/reminders/) polls. Made from the log
 * alone, with the log's times (the applied event's `occurredAt` is "now"), so a rebuild makes the same documents.
 *
 *   - A change of the event (event.*, event.occurrence.*) recomputes its reminders: those of occurrences that have not
 *     begun, due before the horizon (48 h ahead). One due already is kept only if it was waiting before (a reminder whose time
 *     had passed when it was set does not fire); what the event no longer produces goes (cancelled, moved, removed).
 *   - `reminder.fired` / `reminder.missed` settle a document and move the series' horizon on when it runs short.
 *     Beyond the horizon the next reminder is always kept, so a sparse series (yearly) still has one waiting, and
 *     every waiting document ends in one of these two events: the horizon never stalls.
 *
 * Settled documents stay while their occurrence has not begun (a recompute must not make them wait again), then go.
 */
import type { ReminderDue } from '../contracts/reminders';
import type { RecordedEvent } from '../services/eventstore/event-store.port';
import { type DueReminder, longestReminderMs, nextReminder, remindersDue } from '../services/reminders/due';
import { DAY_MS } from '../services/time/civil';
import { calendarEventOf } from './event-time';
import { projection, type ProjectionDocs } from './projection';
import { dueDoc, type DueDoc, REMINDERS, RemindedEventData, seriesDoc, type SeriesDoc } from './reminder-docs';

export { REMINDERS } from './reminder-docs';

/** How far ahead of the log's time reminders are computed. */
export const REMINDER_HORIZON_MS = 2 * DAY_MS;
/** A series whose horizon is less than this ahead when one of its reminders settles is computed further. */
const EXTEND_BELOW_MS = DAY_MS;
/** Settled documents are kept this long after their occurrence began, and looked for at most once a minute of the log. */
const KEEP_SETTLED_MS = DAY_MS;
const PRUNE_EVERY_MS = 60_000;
/**
 * Documents one event may have: what its horizon holds (at most 24 occurrences a day for the 2 days, 5 reminders
 * each), the settled ones of occurrences not begun (a 4-week reminder settles 4 weeks early) and moved occurrences.
 */
const MAX_DOCS_PER_EVENT = 10_000;

/** A computation that cannot be made (a zone the runtime does not know) reminds of nothing rather than stopping. */
function safely<T>(work: () => T, otherwise: T): T {
  try {
    return work();
  } catch {
    return otherwise;
  }
}

/**
 * The event's reminders from `now` to its horizon, or to its next reminder when none waits before the horizon. The
 * horizon is computed afresh: a yearly series' next reminder a year ahead must not make a year of an hourly one.
 */
function computed(ev: RemindedEventData, now: number, waiting: (r: DueReminder) => boolean) {
  let to = now + REMINDER_HORIZON_MS;
  let due = safely(() => remindersDue(ev.id, ev, { after: now, dueFrom: Number.NEGATIVE_INFINITY, dueTo: to }), []);
  if (!due.some(waiting)) {
    const next = safely(() => nextReminder(ev.id, ev, to), null);
    if (next) {
      to = next.dueMs + 1;
      due = safely(() => remindersDue(ev.id, ev, { after: now, dueFrom: Number.NEGATIVE_INFINITY, dueTo: to }), []);
    }
  }
  return { due, to };
}

async function recompute(docs: ProjectionDocs, e: RecordedEvent): Promise<void> {
  const parsed = RemindedEventData.safeParse(calendarEventOf(e.type, e.data));
  if (!parsed.success) return;
  const ev = parsed.data;
  const reminding = ev.status === 'confirmed' && longestReminderMs(ev) !== null;
  // Most events never had a reminder: nothing to read or write for them.
  if (!reminding && e.type === 'event.created') return;
  const series = docs<SeriesDoc>('series');
  const stored = await series.get(ev.id);
  if (stored && stored._pos >= e.position) return; // replayed
  if (!reminding && !stored) return;
  const due = docs<DueDoc>('due');
  const existing = new Map((await due.find({ eventId: ev.id }, { limit: MAX_DOCS_PER_EVENT })).map((d) => [d._id, d]));
  const now = Date.parse(e.metadata.occurredAt);
  const waiting = (r: DueReminder) => (existing.has(r.id) ? existing.get(r.id)!.state === 'pending' : r.dueMs >= now);
  const { due: wanted, to } = reminding ? computed(ev, now, waiting) : { due: [], to: 0 };
  const ids = new Set(wanted.map((r) => r.id));
  for (const id of existing.keys()) if (!ids.has(id)) await due.delete(id);
  for (const r of wanted) {
    if (!existing.has(r.id) && r.dueMs >= now) await due.putIfNewer(dueDoc({ ...ev, ownerId: ev.createdBy }, r, e.position));
  }
  if (reminding) await series.putIfNewer(seriesDoc(ev, e.position, to));
  else await series.delete(ev.id);
}

/** Adds the reminders due from the series' horizon on, for occurrences not begun (those due already fire at once). */
async function extend(docs: ProjectionDocs, s: SeriesDoc, e: RecordedEvent, now: number, waitingLeft: number): Promise<void> {
  const ev = { ...s, id: s._id };
  let to = Math.max(s.coveredUntilMs, now + REMINDER_HORIZON_MS);
  let added = safely(() => remindersDue(ev.id, ev, { after: now, dueFrom: s.coveredUntilMs, dueTo: to }), []);
  if (added.length === 0 && waitingLeft === 0) {
    const next = safely(() => nextReminder(ev.id, ev, to), null);
    if (next) {
      to = next.dueMs + 1;
      added = safely(() => remindersDue(ev.id, ev, { after: now, dueFrom: s.coveredUntilMs, dueTo: to }), []);
    }
  }
  const due = docs<DueDoc>('due');
  // insertNew: a document settled meanwhile (a worker that fired it from an older read) stays settled.
  for (const r of added) await due.insertNew(dueDoc(ev, r, e.position));
  await docs<SeriesDoc>('series').putIfNewer({ ...s, _pos: e.position, coveredUntilMs: to });
}

/** Deletes the settled documents of occurrences begun a while ago, once a minute of the log's time at most. */
async function prune(docs: ProjectionDocs, e: RecordedEvent, now: number): Promise<void> {
  const marks = docs('pruned');
  const last = await marks.get('settled');
  if (last && now - (last.atMs as number) < PRUNE_EVERY_MS) return;
  await docs<DueDoc>('due').deleteMany({ state: { $in: ['fired', 'missed'] }, startMs: { $lt: now - KEEP_SETTLED_MS } });
  await marks.putIfNewer({ _id: 'settled', _pos: e.position, atMs: now });
}

async function settle(docs: ProjectionDocs, e: RecordedEvent): Promise<void> {
  const r = e.data as Partial<ReminderDue> | null;
  if (typeof r?.reminderId !== 'string' || typeof r.eventId !== 'string' || typeof r.startsAt !== 'string') return;
  const due = docs<DueDoc>('due');
  const doc = await due.get(r.reminderId);
  if (doc && doc._pos >= e.position) return;
  const state = e.type === 'reminder.fired' ? 'fired' : 'missed';
  const startMs = Date.parse(r.startsAt);
  // One fired from a read made just before its event changed has no document any more: it is kept settled.
  const settled: DueDoc = doc
    ? { ...doc, _pos: e.position, state }
    : {
        _id: r.reminderId, _pos: e.position, eventId: r.eventId, ownerId: r.ownerId ?? '', occurrenceStartsAt: r.occurrenceStartsAt ?? r.startsAt,
        startsAt: r.startsAt, endsAt: r.endsAt ?? r.startsAt, startMs, dueMs: Date.parse(r.dueAt ?? r.startsAt),
        minutesBefore: r.minutesBefore ?? 0, method: r.method ?? 'notification', recurring: true, state,
      };
  await due.putIfNewer(settled);
  const now = Date.parse(e.metadata.occurredAt);
  await prune(docs, e, now);
  if (!settled.recurring) return;

  const s = await docs<SeriesDoc>('series').get(r.eventId);
  if (!s || !s.recurrenceRule || s._pos >= e.position) return;
  const waitingLeft = await due.count({ eventId: r.eventId, state: 'pending' });
  if (s.coveredUntilMs < now + EXTEND_BELOW_MS || waitingLeft === 0) await extend(docs, s, e, now, waitingLeft);
}

export const remindersProjection = projection({
  name: REMINDERS,
  version: 1,
  collections: {
    series: { indexes: [] },
    pruned: { indexes: [] },
    // The worker's poll (waiting, by due instant and id: a page of a burst due at one instant is read in index
    // order, not sorted), an event's documents, and the pruning of settled ones.
    due: { indexes: [['state', 'dueMs', '_id'], ['eventId', 'state'], ['state', 'startMs']] },
  },
  handles: [
    'event.created', 'event.updated', 'event.cancelled', 'event.occurrence.changed', 'event.occurrence.cancelled',
    'reminder.fired', 'reminder.missed',
  ],
  async apply(e, docs) {
    if (e.type === 'reminder.fired' || e.type === 'reminder.missed') return settle(docs, e);
    return recompute(docs, e);
  },
});
