/**
 * iCalendar identity: the UID an event is written with, and the id an event with a client's UID gets. Events made
 * here are `{id}@calendar-service`; imported (and CalDAV-written) ones keep the client's UID and get an id derived from
 * (calendar, UID), so the same UID in the same calendar always finds the same event, with no lookup table.
 */
import type { Event } from '../../contracts/events';
import { deterministicUuid } from '../ids';

export const UID_DOMAIN = 'calendar-service';

/** The UID an event is written with (RDATE-made events share their series' UID). */
export const uidOf = (event: Pick<Event, 'id' | 'icalUid'>): string => event.icalUid ?? `${event.id}@${UID_DOMAIN}`;

/** The id of the event a UID (and, for an RDATE of it, that date) makes in a calendar. */
export const eventIdForUid = (calendarId: string, uid: string, recurrenceId: string | null = null): string =>
  recurrenceId === null ? deterministicUuid('ical', calendarId, uid) : deterministicUuid('ical', calendarId, uid, recurrenceId);

const OWN_UID = new RegExp(`^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})@${UID_DOMAIN}$`);

/** The id of the event made here that a UID names (`{id}@calendar-service`), or null. */
export const ownEventIdOf = (uid: string): string | null => OWN_UID.exec(uid)?.[1] ?? null;

/**
 * The ids an event with this UID may have in this calendar, most likely first: the event made here that the UID names
 * (`{id}@calendar-service`, when it has no UID of its own), then the id a client's UID gets.
 */
export function candidateIds(calendarId: string, uid: string): string[] {
  const own = ownEventIdOf(uid);
  return own ? [own, eventIdForUid(calendarId, uid)] : [eventIdForUid(calendarId, uid)];
}
