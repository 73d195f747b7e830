/**
 * Weekly aggregates per person for GET /insights: minutes by event kind, stopped focus sessions and routine periods
 * marked, one document per person and week (`<userId>:<Monday>`), weeks read in the person's zone at the time.
 *
 * A single event remembers what it added to which week (`_weeks`), so a change subtracts that and adds the new
 * share. Every week document is written once per log event with `_pos`, and a document already at that position is
 * left alone, so replaying a batch after a crash adds nothing twice. Recurring series are kept as they are and
 * expanded when a week is read (an endless series has no last week to add to).
 */
import type { RecordedEvent } from '../services/eventstore/event-store.port';
import { focusView, FocusSessionRecord } from '../contracts/focus';
import { Routine, RoutinePeriodDay } from '../contracts/routines';
import type { Doc } from '../services/readstore/read-store.port';
import { overlapMinutes, weekAt, weekOf } from '../services/time/week';
import { addDays, localDate, mondayOf } from '../services/time/local-time';
import { calendarEventOf, eventTime, timeFields, type EventTime } from './event-time';
import { projection, type ProjectionDocs } from './projection';

export const INSIGHTS = 'insights';

/** A long single event adds to at most this many weeks. */
const MAX_WEEKS_PER_EVENT = 60;

export interface WeekTotals {
  minutesByKind: Record<string, number>;
  focusSessions: { count: number; minutes: number };
  routinePeriods: { completed: number; skipped: number };
}

export type WeekDoc = Doc & WeekTotals & { userId: string; week: string };
type Share = { week: string; kind: string; minutes: number };

export const emptyTotals = (): WeekTotals => ({
  minutesByKind: {}, focusSessions: { count: 0, minutes: 0 }, routinePeriods: { completed: 0, skipped: 0 },
});

export const weekDocId = (userId: string, monday: string) => `${userId}:${monday}`;

/** Applies a change to one week of one person, once per log position. */
async function changeWeek(docs: ProjectionDocs, userId: string, monday: string, e: RecordedEvent, change: (t: WeekTotals) => void) {
  const id = weekDocId(userId, monday);
  const doc = await docs<WeekDoc>('weeks').get(id);
  if (doc && (doc._pos ?? 0) >= e.position) return;
  const totals: WeekTotals = doc
    ? { minutesByKind: { ...doc.minutesByKind }, focusSessions: { ...doc.focusSessions }, routinePeriods: { ...doc.routinePeriods } }
    : emptyTotals();
  change(totals);
  await docs<WeekDoc>('weeks').putIfNewer({ _id: id, _pos: e.position, userId, week: monday, ...totals });
}

async function timeZoneOf(docs: ProjectionDocs, userId: string): Promise<string> {
  return ((await docs('users').get(userId))?.timeZone as string | undefined) ?? 'UTC';
}

/** The minutes a single timed event adds to each week it touches. */
function sharesOf(event: EventTime, timeZone: string): Share[] {
  if (event.status !== 'confirmed' || event.allDay || event.recurrenceRule) return [];
  const end = Date.parse(event.endsAt);
  const shares: Share[] = [];
  for (let week = weekAt(event.startMs, timeZone), n = 0; week.start < end && n < MAX_WEEKS_PER_EVENT; n++) {
    const minutes = overlapMinutes(event.startMs, end, week.start, week.end);
    if (minutes > 0) shares.push({ week: week.monday, kind: event.kind, minutes });
    week = weekOf(addDays(week.monday, 7), timeZone);
  }
  return shares;
}

async function applyCalendarEvent(e: RecordedEvent, docs: ProjectionDocs) {
  const event = eventTime(calendarEventOf(e.type, e.data));
  if (!event) return;
  const userId = (await docs('spaces').get(event.spaceId))?.ownerId as string | undefined;
  if (!userId) return;
  // A new event has no earlier shares to take back.
  const previous = e.type === 'event.created' ? null : await docs('events').get(event.id);
  if (previous && (previous._pos ?? 0) >= e.position) return;
  const shares = sharesOf(event, await timeZoneOf(docs, userId));
  const delta = new Map<string, Map<string, number>>();
  const add = (s: Share, sign: number) => {
    const kinds = delta.get(s.week) ?? new Map<string, number>();
    kinds.set(s.kind, (kinds.get(s.kind) ?? 0) + sign * s.minutes);
    delta.set(s.week, kinds);
  };
  for (const s of (previous?._weeks as Share[] | undefined) ?? []) add(s, -1);
  for (const s of shares) add(s, 1);
  for (const [week, kinds] of delta) {
    const changed = [...kinds].filter(([, minutes]) => minutes !== 0);
    if (changed.length === 0) continue;
    await changeWeek(docs, userId, week, e, (t) => {
      for (const [kind, minutes] of changed) t.minutesByKind[kind] = (t.minutesByKind[kind] ?? 0) + minutes;
    });
  }
  await docs('events').putIfNewer({
    _id: event.id, _pos: e.position, userId, ...timeFields(event), _weeks: shares,
    _recurring: event.status === 'confirmed' && !event.allDay && !!event.recurrenceRule,
  });
}

async function applyFocusStopped(e: RecordedEvent, docs: ProjectionDocs) {
  const parsed = FocusSessionRecord.safeParse(e.data);
  if (!parsed.success || !parsed.data.stoppedAt) return;
  const session = focusView(parsed.data, Date.parse(parsed.data.stoppedAt));
  const week = weekAt(Date.parse(session.startedAt), await timeZoneOf(docs, session.userId));
  await changeWeek(docs, session.userId, week.monday, e, (t) => {
    t.focusSessions.count += 1;
    t.focusSessions.minutes += session.elapsedSeconds / 60;
  });
}

async function applyRoutine(e: RecordedEvent, docs: ProjectionDocs) {
  const parsed = Routine.safeParse(e.data);
  if (!parsed.success) return;
  const routine = parsed.data;
  const timeZone = await timeZoneOf(docs, routine.ownerId);
  await docs('routines').putIfNewer({
    _id: routine.id, _pos: e.position, userId: routine.ownerId, isActive: routine.isActive, days: routine.days,
    periodCount: routine.periods.length, firstDate: localDate(Date.parse(routine.createdAt), timeZone),
    endDate: e.type === 'routine.deleted' ? localDate(Date.parse(e.metadata.occurredAt), timeZone) : null,
  });
}

async function applyPeriodDay(e: RecordedEvent, docs: ProjectionDocs) {
  const parsed = RoutinePeriodDay.safeParse(e.data);
  if (!parsed.success) return;
  const { period, date, routine } = parsed.data;
  const id = `${period.id}:${date}`;
  const previous = await docs('periodDays').get(id);
  if (previous && (previous._pos ?? 0) >= e.position) return;
  const status = e.type === 'routine.period.completed' ? 'completed' : 'skipped';
  const was = previous?.status as 'completed' | 'skipped' | undefined;
  if (was !== status) {
    await changeWeek(docs, routine.ownerId, mondayOf(date), e, (t) => {
      if (was) t.routinePeriods[was] -= 1;
      t.routinePeriods[status] += 1;
    });
  }
  await docs('periodDays').putIfNewer({ _id: id, _pos: e.position, userId: routine.ownerId, status });
}

/** A day's status taken back (`routine.period.cleared`): the period no longer counts as completed or skipped. */
async function applyPeriodCleared(e: RecordedEvent, docs: ProjectionDocs) {
  const data = e.data as { periodId?: unknown; date?: unknown } | null;
  if (typeof data?.periodId !== 'string' || typeof data.date !== 'string') return;
  const id = `${data.periodId}:${data.date}`;
  const previous = await docs('periodDays').get(id);
  if (!previous || (previous._pos ?? 0) >= e.position) return;
  const was = previous.status as 'completed' | 'skipped' | null;
  const userId = previous.userId as string;
  if (was) await changeWeek(docs, userId, mondayOf(data.date), e, (t) => void (t.routinePeriods[was] -= 1));
  await docs('periodDays').putIfNewer({ _id: id, _pos: e.position, userId, status: null });
}

export const insightsProjection = projection({
  name: INSIGHTS,
  version: 2, // v2: erasure stamps on every document
  collections: {
    users: { indexes: [] },
    spaces: { indexes: [] },
    events: { indexes: [['userId', '_recurring', '_startMs']] },
    weeks: { indexes: [['userId', 'week']], coalesce: true }, // rewritten by each of a person's events
    routines: { indexes: [['userId']] },
    periodDays: { indexes: [] },
  },
  handles: [
    'user.registered', 'user.profile_updated', 'space.created', 'event.created', 'event.updated', 'event.cancelled',
    'event.occurrence.changed', 'event.occurrence.cancelled',
    'focus.stopped', 'routine.created', 'routine.updated', 'routine.deleted', 'routine.period.completed',
    'routine.period.skipped', 'routine.period.cleared',
  ],
  async apply(e, docs) {
    const data = e.data as Record<string, any> | null;
    switch (e.type) {
      case 'user.registered':
      case 'user.profile_updated': {
        const user = data?.user;
        if (typeof user?.id === 'string' && typeof user.timeZone === 'string') {
          await docs('users').putIfNewer({ _id: user.id, _pos: e.position, timeZone: user.timeZone });
        }
        return;
      }
      case 'space.created': {
        const space = data?.space;
        if (typeof space?.id === 'string' && typeof space.ownerId === 'string') {
          await docs('spaces').putIfNewer({ _id: space.id, _pos: e.position, ownerId: space.ownerId });
        }
        return;
      }
      case 'focus.stopped':
        return applyFocusStopped(e, docs);
      case 'routine.created':
      case 'routine.updated':
      case 'routine.deleted':
        return applyRoutine(e, docs);
      case 'routine.period.completed':
      case 'routine.period.skipped':
        return applyPeriodDay(e, docs);
      case 'routine.period.cleared':
        return applyPeriodCleared(e, docs);
      default:
        return applyCalendarEvent(e, docs);
    }
  },
});
