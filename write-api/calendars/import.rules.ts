/**
 * An iCalendar import in the Space schedule: one command for the whole file, so it is written all at once or not at
 * all, decided where every other change to the Space's events is. Each item is one event of the file, its id derived
 * from (calendar, UID[, RDATE]) (services/ical/uid.ts): a new one is created, a changed one updated, one the file
 * cancels is cancelled, an unchanged one left alone, so importing the same file again appends nothing. The domain
 * events are the ones REST appends (event.created, event.updated, event.cancelled): webhooks and /sync follow.
 * Imported events may overlap (they are history, not bookings) and book no resource: no conflict is checked.
 */
import type { DomainEvent } from '../../contracts/domain-events';
import type { Event, EventFields, OccurrenceException } from '../../contracts/events';
import { normalRule } from '../../services/ical';
import { checkFields, type ScheduleView } from '../schedule/validation';

/** What an import sets of an event: the fields the file carries (the rest an existing event keeps). */
export type ImportedFields = Omit<EventFields, 'calendarId' | 'resources' | 'taskId' | 'goalId' | 'allowOverlap'>;

export interface ImportItem {
  eventId: string;
  /**
   * The event made here that the UID names (`{id}@calendar-service`, services/ical/uid.ts): a file this service
   * wrote, imported into the same calendar, is that event again rather than a copy.
   */
  sameAs: string | null;
  icalUid: string;
  icalRecurrenceId: string | null;
  fields: ImportedFields;
  exceptions: OccurrenceException[];
  /** STATUS:CANCELLED in the file. */
  cancelled: boolean;
}

export interface ImportCommand {
  type: 'ImportEvents';
  actorId: string;
  calendarId: string;
  items: ImportItem[];
  now: string;
  /**
   * The items are the objects as they are now, so an event cancelled here comes back: a CalDAV PUT (a client that
   * deleted an object puts it again) and a subscription's fetch (an event the source holds again). A file import
   * leaves cancelled events cancelled.
   */
  reviveCancelled?: boolean;
}

type ImportEvent = Extract<DomainEvent, { type: 'event.created' | 'event.updated' | 'event.cancelled' }>;

const IMPORTED_FIELDS = [
  'title', 'description', 'location', 'meetingUrl', 'kind', 'startsAt', 'endsAt', 'timeZone', 'allDay', 'busy', 'recurrenceRule',
  'attendees', 'reminders',
] as const satisfies ReadonlyArray<keyof ImportedFields>;

/** JSON with every object's keys in order: equal values, equal text. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v));

/**
 * Whether the event already is what the item says: every field the file carries (a rule compared as the iCalendar
 * reader writes it: the same rule with its parts in another order is the same), exceptions and identity.
 */
export function importedUnchanged(event: Event, item: ImportItem, identity: Pick<Event, 'icalUid' | 'icalRecurrenceId'>): boolean {
  const ours = { ...event, recurrenceRule: event.recurrenceRule && normalRule(event.recurrenceRule) };
  return IMPORTED_FIELDS.every((f) => canonical(ours[f]) === canonical(item.fields[f])) && canonical(event.exceptions) === canonical(item.exceptions)
    && event.icalUid === identity.icalUid && event.icalRecurrenceId === identity.icalRecurrenceId;
}

/** The event the item is: the one made here that its UID names, in this calendar and without a UID of its own; else its own. */
export function targetOf(item: ImportItem, state: ScheduleView, calendarId: string): { id: string; own: boolean } {
  const named = item.sameAs === null ? undefined : state.events.get(item.sameAs);
  return named && named.calendarId === calendarId && named.icalUid === null ? { id: named.id, own: true } : { id: item.eventId, own: false };
}

/** The event cancelled at `now`. */
export const cancelledAt = (event: Event, now: string): Event => ({ ...event, status: 'cancelled', updatedAt: now, deletedAt: now, version: event.version + 1 });

/** `spaceId`: the Space of the schedule, the caller already found its member. */
export function decideImport(command: ImportCommand, state: ScheduleView, spaceId: string): ImportEvent[] {
  const { now, actorId, calendarId } = command;
  const out: ImportEvent[] = [];
  for (const item of command.items) {
    const target = targetOf(item, state, calendarId);
    const existing = state.events.get(target.id);
    const identity = target.own ? { icalUid: null, icalRecurrenceId: null } : { icalUid: item.icalUid, icalRecurrenceId: item.icalRecurrenceId };
    if (!existing) {
      if (item.cancelled) continue;
      const created: Event = {
        id: item.eventId, spaceId, calendarId, ...item.fields, resources: [], taskId: null, goalId: null, allowOverlap: true,
        exceptions: item.exceptions, ...identity, status: 'confirmed', createdBy: actorId, createdAt: now, updatedAt: now,
        deletedAt: null, version: 1,
      };
      checkFields(state, created);
      out.push({ type: 'event.created', data: created });
    } else if (existing.status === 'cancelled') {
      // Cancelled here: a file import does not bring it back; a CalDAV PUT and a subscription's fetch do.
      if (!command.reviveCancelled || item.cancelled) continue;
      const revived: Event = {
        ...existing, ...item.fields, exceptions: item.exceptions, ...identity, status: 'confirmed', deletedAt: null, updatedAt: now, version: existing.version + 1,
      };
      checkFields(state, revived);
      out.push({ type: 'event.updated', data: revived });
    } else if (item.cancelled) {
      out.push({ type: 'event.cancelled', data: cancelledAt(existing, now) });
    } else if (!importedUnchanged(existing, item, identity)) {
      const rule = existing.recurrenceRule && normalRule(existing.recurrenceRule) === item.fields.recurrenceRule ? existing.recurrenceRule : item.fields.recurrenceRule;
      const updated: Event = {
        ...existing, ...item.fields, recurrenceRule: rule, exceptions: item.exceptions, ...identity, updatedAt: now, version: existing.version + 1,
      };
      checkFields(state, updated);
      out.push({ type: 'event.updated', data: updated });
    }
  }
  return out;
}
