/**
 * The single events of each calendar grouped by the UTC day they start on, for the availability engine: a request
 * over 14 days reads a document per calendar and day instead of every event (2,000 events cost 2,000 reads). Only
 * single events lasting at most a day are kept here; longer ones and recurring series are few and stay in the
 * schedule projection's events, read by span class and expanded when asked.
 *
 * A day document holds its entries sorted by start. An event remembers which day document holds it (`placements`),
 * so a move or a cancellation takes it out of the old day. Every document is written once per log event with `_pos`,
 * and one already at that position is left alone, so replaying after a crash changes nothing twice.
 */
import type { Event } from '../contracts/events';
import type { RecordedEvent } from '../services/eventstore/event-store.port';
import type { Doc } from '../services/readstore/read-store.port';
import { DAY_MS } from '../services/time/local-time';
import { projection, type ProjectionDocs } from './projection';

export const BUSY_TIME = 'busy-time';

/** The longest single event a day document holds; longer ones are read from the schedule's events. */
export const DAY_ENTRY_MAX_MS = DAY_MS;

/** A single event as the engine sees it: a `CalendarEvent` (services/availability/types.ts) with its span as numbers. */
export interface BusyEntry {
  id: string;
  title: string;
  kind: string;
  busy: boolean;
  allDay: boolean;
  timeZone: string;
  startsAt: string;
  endsAt: string;
  recurrenceRule: null;
  taskId: string | null;
  goalId: string | null;
  start: number;
  end: number;
}

export type DayDoc = Doc & { calendarId: string; day: number; entries: BusyEntry[] };
type PlacementDoc = Doc & { dayId: string | null };

export const utcDay = (ms: number) => Math.floor(ms / DAY_MS);
export const dayDocId = (calendarId: string, day: number) => `${calendarId}:${day}`;

/** The entry an event puts in its start day, or null when it belongs elsewhere (a series, a long or cancelled event). */
function entryOf(event: Event): { dayId: string; calendarId: string; day: number; entry: BusyEntry } | null {
  const start = Date.parse(event.startsAt);
  const end = Date.parse(event.endsAt);
  if (event.status !== 'confirmed' || event.recurrenceRule || !(end > start) || end - start > DAY_ENTRY_MAX_MS) return null;
  const day = utcDay(start);
  const entry: BusyEntry = {
    id: event.id, title: event.title, kind: event.kind, busy: event.busy, allDay: event.allDay, timeZone: event.timeZone,
    startsAt: event.startsAt, endsAt: event.endsAt, recurrenceRule: null, taskId: event.taskId ?? null, goalId: event.goalId ?? null,
    start, end,
  };
  return { dayId: dayDocId(event.calendarId, day), calendarId: event.calendarId, day, entry };
}

const byStart = (a: BusyEntry, b: BusyEntry) => a.start - b.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Rewrites one day document without the event (and with its new entry), once per log position. */
async function changeDay(
  docs: ProjectionDocs, dayId: string, e: RecordedEvent, eventId: string, added: { calendarId: string; day: number; entry: BusyEntry } | null,
) {
  const days = docs<DayDoc>('days');
  const doc = await days.get(dayId);
  if (doc && (doc._pos ?? 0) >= e.position) return;
  if (!doc && !added) return;
  // A new array: a coalesced document must not change after it was written.
  const entries = (doc?.entries ?? []).filter((x) => x.id !== eventId);
  if (added) entries.push(added.entry), entries.sort(byStart);
  const { calendarId, day } = doc ?? added!;
  await days.putIfNewer({ _id: dayId, _pos: e.position, calendarId, day, entries });
}

export const busyTimeProjection = projection({
  name: BUSY_TIME,
  version: 1,
  collections: {
    days: { indexes: [['calendarId', 'day']], coalesce: true },
    placements: { indexes: [], coalesce: true },
  },
  handles: ['event.created', 'event.updated', 'event.cancelled'],
  async apply(e, docs) {
    const event = e.data as Event;
    if (typeof event?.id !== 'string' || typeof event.calendarId !== 'string') return;
    const placements = docs<PlacementDoc>('placements');
    const placed = e.type === 'event.created' ? null : await placements.get(event.id);
    if (placed && (placed._pos ?? 0) >= e.position) return;
    const next = entryOf(event);
    if (placed?.dayId && placed.dayId !== next?.dayId) await changeDay(docs, placed.dayId, e, event.id, null);
    if (next) await changeDay(docs, next.dayId, e, event.id, next);
    if (placed || next) await placements.putIfNewer({ _id: event.id, _pos: e.position, dayId: next?.dayId ?? null });
  },
});
