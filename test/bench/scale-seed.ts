/**
 * Writes a history straight into the embedded event log for the scale bench: the bench user's calendar gets a tenth
 * of the events (one every three hours, history before and after the measured week, ten weekly series), the rest
 * goes to other people's Spaces. One event in ten is later updated, one in twenty cancelled. The last changes of the
 * bench calendar come last, among as many other people's changes as anywhere: a sync cursor taken before them asks
 * for those changes, and has to find them among the others'.
 */
import { randomUUID } from 'node:crypto';
import type { Event } from '../../contracts/events';
import type { EventStore, NewEvent } from '../../services/eventstore/event-store.port';
import { openSqliteEventStore } from '../../services/eventstore/sqlite-event-store';
import { scheduleStream } from '../../write-api/schedule/schedule.decider';

export const WEEK_MS = 7 * 86_400_000;
/** The measured week (a Monday, UTC). */
export const MEASURED_WEEK = Date.UTC(2030, 0, 7);
/** One event every three hours: 56 in any week of a calendar. */
const SPACING_MS = 3 * 3_600_000;
const DURATION_MS = 3_600_000;
const BATCH = 500;
const SERIES = 10;
/** Changes of the bench calendar appended last (what the measured /sync returns). */
export const TAIL_CHANGES = 100;
const OTHER_SPACES_PER_10K = 10;

export interface BenchCalendar {
  userId: string;
  spaceId: string;
  calendarId: string;
}

export interface SeedResult {
  events: number;
  calendarEvents: number;
  /** Log head before the bench calendar's tail changes: a sync from here returns TAIL_CHANGES events. */
  tailFrom: number;
  head: number;
  seconds: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

function eventData(id: string, space: string, calendar: string, owner: string, startMs: number, i: number, rule: string | null = null): Event {
  const at = iso(Date.UTC(2029, 0, 1) + i);
  return {
    id, spaceId: space, calendarId: calendar, title: `Scale bench ${i}`, description: 'Seeded by the scale bench',
    location: 'Room 4', meetingUrl: null, kind: 'meeting', startsAt: iso(startMs), endsAt: iso(startMs + DURATION_MS),
    timeZone: 'Europe/Paris', allDay: false, busy: true, recurrenceRule: rule, taskId: null, goalId: null, resources: [],
    attendees: [], reminders: [], allowOverlap: true, exceptions: [], icalUid: null, icalRecurrenceId: null, status: 'confirmed', createdBy: owner, createdAt: at, updatedAt: at,
    deletedAt: null, version: 1,
  };
}

function envelope(type: string, data: unknown, userId: string, spaceId: string, occurredAt: string): NewEvent {
  return {
    id: randomUUID(), type, data,
    metadata: { userId, spaceId, correlationId: randomUUID(), causationId: randomUUID(), occurredAt, schemaVersion: 1 },
  };
}

/**
 * Buffers events as they are made and writes them BATCH at a time, one append per stream (keeping each stream's
 * order) all issued at once, so that the store commits them together: the log interleaves the calendars about as
 * many users writing at once would, a few events of each in every page of it. (Appending each stream's events in
 * long runs instead made every page of the log one calendar's, which flattered the projections' indexes.)
 */
class Writer {
  private pending = new Map<string, NewEvent[]>();
  private buffered = 0;
  count = 0;
  constructor(private readonly store: EventStore) {}

  async add(stream: string, event: NewEvent): Promise<void> {
    const list = this.pending.get(stream) ?? [];
    list.push(event);
    this.pending.set(stream, list);
    this.count++;
    if (++this.buffered >= BATCH) await this.flush();
  }

  async flush(): Promise<void> {
    const streams = [...this.pending];
    this.pending = new Map();
    this.buffered = 0;
    await Promise.all(streams.map(([name, list]) => this.store.append(name, list, 'any')));
  }
}

/** One calendar's events, without end: created in slot order from `firstMs` on, some updated or cancelled later. */
function* calendarHistory(cal: BenchCalendar, firstMs: number, series: number): Generator<{ type: string; data: Event }> {
  for (let s = 0; s < series; s++) {
    const start = MEASURED_WEEK - 52 * WEEK_MS + s * 5 * 3_600_000 + 1_800_000;
    yield { type: 'event.created', data: eventData(randomUUID(), cal.spaceId, cal.calendarId, cal.userId, start, s, 'FREQ=WEEKLY') };
  }
  const recent: Event[] = [];
  for (let i = 0; ; i++) {
    const data = eventData(randomUUID(), cal.spaceId, cal.calendarId, cal.userId, firstMs + i * SPACING_MS, i);
    yield { type: 'event.created', data };
    if (i % 10 === 9) recent.push(data);
    if (recent.length >= 20) {
      const old = recent.shift()!;
      yield i % 20 === 19
        ? { type: 'event.cancelled', data: { ...old, status: 'cancelled', deletedAt: old.updatedAt, version: 2 } }
        : { type: 'event.updated', data: { ...old, title: `${old.title} (moved)`, version: 2 } };
    }
  }
}

/** `total` events: the bench calendar's share interleaved with the others' in proportion, its tail at the end. */
export async function seedLog(
  file: string,
  total: number,
  bench: BenchCalendar,
  /** Wraps the opened log (say, to seal events as the service does). */
  through: (store: EventStore) => EventStore = (store) => store,
): Promise<SeedResult> {
  const started = Date.now();
  const store = through(await openSqliteEventStore(file));
  const writer = new Writer(store);
  const calendarEvents = Math.max(TAIL_CHANGES * 10, Math.floor(total / 10));
  const spaces = Math.max(1, Math.round((total / 10_000) * OTHER_SPACES_PER_10K));
  const others: BenchCalendar[] = Array.from({ length: spaces }, () => ({ userId: randomUUID(), spaceId: randomUUID(), calendarId: randomUUID() }));
  for (const o of others) {
    const at = iso(Date.UTC(2029, 0, 1));
    const space = { id: o.spaceId, name: 'Other space', kind: 'personal', ownerId: o.userId, createdAt: at, updatedAt: at, deletedAt: null };
    const calendar = { id: o.calendarId, spaceId: o.spaceId, name: 'Other', color: '#3366ff', isDefault: true, createdAt: at, updatedAt: at, deletedAt: null };
    await writer.add(scheduleStream(o.spaceId), envelope('space.created', { space }, o.userId, o.spaceId, at));
    await writer.add(scheduleStream(o.spaceId), envelope('calendar.created', { calendar }, o.userId, o.spaceId, at));
  }
  const otherTotal = total - calendarEvents - writer.count;
  const firstMs = (count: number) => MEASURED_WEEK - Math.floor(count / 2) * SPACING_MS;
  const benchHistory = calendarHistory(bench, firstMs(calendarEvents), SERIES);
  const otherHistories = others.map((o) => calendarHistory(o, firstMs(otherTotal / spaces), 0));
  const write = async (cal: BenchCalendar, history: Generator<{ type: string; data: Event }>) => {
    const { type, data } = history.next().value!;
    await writer.add(scheduleStream(cal.spaceId), envelope(type, data, cal.userId, cal.spaceId, data.updatedAt));
  };
  // The calendars interleave in the log, as many users writing at once would; so does the tail.
  let otherWritten = 0;
  const interleave = async (benchCount: number, otherCount: number) => {
    for (let b = 0, o = 0; b < benchCount || o < otherCount; ) {
      if (o >= otherCount || (b < benchCount && b / benchCount <= o / otherCount)) {
        await write(bench, benchHistory);
        b++;
      } else {
        const i = otherWritten++ % spaces;
        await write(others[i], otherHistories[i]);
        o++;
      }
    }
    await writer.flush();
  };
  const otherTail = Math.min(otherTotal, TAIL_CHANGES * 9);
  await interleave(calendarEvents - TAIL_CHANGES, otherTotal - otherTail);
  const tailFrom = await store.headPosition();
  await interleave(TAIL_CHANGES, otherTail);
  const head = await store.headPosition();
  await store.close();
  return { events: writer.count, calendarEvents, tailFrom, head, seconds: (Date.now() - started) / 1000 };
}
