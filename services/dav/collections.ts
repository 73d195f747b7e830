/**
 * The calendars a CalDAV user sees as collections, and the calendar objects (one per UID) in each. A collection is a
 * calendar whose events the user's role shows (calendarAccessOf; a freeBusyReader gets none). A calendar's objects are
 * read once per change of it (its highest event position) and kept, so that clients polling an unchanged calendar, and
 * every REPORT over it, cost one indexed read.
 */
import { mayWrite, seesEvents, type CalendarRole } from '../../contracts/calendar-members';
import type { Calendar } from '../../contracts/spaces';
import type { Event } from '../../contracts/events';
import { SCHEDULE } from '../../projections/schedule.projection';
import { publicView, type ReadModels } from '../../projections/read-models';
import { calendarAccessOf, calendarRoleOf } from '../../read-api/spaces/calendar-access';
import { ApiError } from '../errors';
import { objectsOf, uidOf } from '../ical';
import { deterministicUuid } from '../ids';
import type { Doc } from '../readstore/read-store.port';

/** Events of one calendar that a collection holds, at most (live and cancelled: cancelled ones are sync's deletions). */
export const MAX_COLLECTION_EVENTS = 20_000;

export interface Collection {
  calendar: Calendar;
  role: CalendarRole;
  /** The owner of the calendar's Space (the ORGANIZER its objects are written with). */
  ownerId: string;
  writable: boolean;
}

export interface DavObject {
  uid: string;
  /** The master (null when only RDATE-made events are left) and the events its RDATEs made. */
  series: Event | null;
  rdates: Event[];
  etag: string;
}

export interface CollectionState {
  /** Highest position of the calendar's events (0: none yet): the sync token. */
  position: number;
  objects: Map<string, DavObject>;
  /** UIDs by the position of their last change, for sync-collection. */
  changes: Array<{ uid: string; position: number; live: boolean }>;
}

/** A subscribed calendar (one with a `source`; listed `readOnly: true`) is never written over CalDAV. */
const readOnly = (c: Calendar) => c.source != null;

/** The id a collection a client made (MKCALENDAR) at `segment` has: a client names its collections. */
export const madeCalendarId = (userId: string, segment: string) => deterministicUuid('caldav-collection', userId, segment);

export async function collectionsOf(models: ReadModels, userId: string): Promise<Collection[]> {
  const access = await calendarAccessOf(models, userId);
  return access
    .filter((a) => seesEvents(a.role))
    .map((a) => ({ calendar: a.calendar, role: a.role, ownerId: a.ownerId, writable: mayWrite(a.role) && !readOnly(a.calendar) }));
}

/**
 * The collection at `segment` (a calendar id, or the name a client made it under); 404 when the user sees none there.
 * Read by id with the role's two reads (calendarRoleOf), not by listing every calendar: objects are written here.
 */
export async function collectionAt(models: ReadModels, userId: string, segment: string): Promise<Collection> {
  const schedule = await models.docs(SCHEDULE);
  const calendars = schedule('calendars');
  const doc = (await calendars.get(segment)) ?? (await calendars.get(madeCalendarId(userId, segment)));
  const calendar = doc ? publicView<Calendar>(doc) : null;
  const role = calendar && !calendar.deletedAt ? await calendarRoleOf(models, userId, calendar) : null;
  const space = calendar && seesEvents(role) ? await schedule('spaces').get(calendar.spaceId) : null;
  if (!calendar || !space) throw new ApiError(404, 'not_found', 'No such calendar collection');
  return { calendar, role: role!, ownerId: space.ownerId as string, writable: mayWrite(role) && !readOnly(calendar) };
}

/** An object's ETag: its events' versions (one event: `"v3"`, as over REST). */
const etagOf = (events: Event[]) => `"v${events.map((e) => e.version).join('.')}"`;

type EventDoc = Doc & Event;

/** What is kept of a calendar between requests: its live events by id, and its changes in log order. */
interface Kept extends CollectionState {
  live: Map<string, Event>;
  uidsOf: Map<string, Set<string>>;
}

export class CollectionReader {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly models: ReadModels, private readonly capacity = 200) {}

  private async events() {
    return (await this.models.docs(SCHEDULE))<EventDoc>('events');
  }

  async position(calendarId: string): Promise<number> {
    const [last] = await (await this.events()).find({ calendarId }, { sort: [['_pos', -1]], limit: 1 });
    return Number(last?._pos ?? 0);
  }

  /**
   * The calendar's objects as of now: read whole the first time, then only what changed since (the events past the
   * position kept), so a write costs the objects it touched. Read whole again once changes outnumber the events.
   */
  async state(calendarId: string): Promise<CollectionState> {
    const position = await this.position(calendarId);
    let kept = this.kept.get(calendarId);
    if (kept && kept.position === position) return kept;
    if (!kept || kept.changes.length > 2 * kept.live.size + 100) kept = { position: 0, objects: new Map(), changes: [], live: new Map(), uidsOf: new Map() };
    const docs = await (await this.events()).find({ calendarId, _pos: { $gt: kept.position } }, { sort: [['_pos', 1]], limit: MAX_COLLECTION_EVENTS });
    const touched = new Set<string>();
    for (const d of docs) {
      const uid = uidOf(d);
      touched.add(uid);
      if (d.deletedAt === null) kept.live.set(d.id, d as unknown as Event);
      else kept.live.delete(d.id);
      const ids = kept.uidsOf.get(uid) ?? new Set<string>();
      ids.add(d.id);
      kept.uidsOf.set(uid, ids);
    }
    for (const uid of touched) {
      const events = [...kept.uidsOf.get(uid)!].map((id) => kept.live.get(id)).filter((e): e is Event => e !== undefined);
      const [object] = objectsOf(events);
      if (object) kept.objects.set(uid, { ...object, etag: etagOf([object.series, ...object.rdates].filter((e): e is Event => e !== null)) });
      else kept.objects.delete(uid);
    }
    for (const d of docs) kept.changes.push({ uid: uidOf(d), position: Number(d._pos), live: kept.objects.has(uidOf(d)) });
    kept.position = docs.length ? Number(docs[docs.length - 1]._pos) : position;
    this.kept.delete(calendarId);
    this.kept.set(calendarId, kept);
    if (this.kept.size > this.capacity) this.kept.delete(this.kept.keys().next().value!);
    return kept;
  }
}
