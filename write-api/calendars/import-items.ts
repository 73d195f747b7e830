/**
 * The events an iCalendar text was read as, made into import items (import.rules.ts): attendees linked to users as
 * REST links them (one lookup for the whole text), ids derived from (calendar, UID[, RDATE]). Shared by
 * POST /calendars/{id}/import and a CalDAV PUT, so both write the same command.
 */
import type { Event } from '../../contracts/events';
import { eventIdForUid, ownEventIdOf, type ReadEvent } from '../../services/ical';
import type { eventCommands } from '../events/event-commands';
import type { ImportItem } from './import.rules';

type Commands = Pick<ReturnType<typeof eventCommands>, 'resolveAttendees'>;

async function linkAttendees(events: Commands, read: ReadEvent[], environment: 'live' | 'test') {
  const all = read.flatMap((e) => [...e.fields.attendees, ...e.exceptions.flatMap((x) => x.attendees ?? [])]);
  const unique = [...new Map(all.map((a) => [a.email.toLowerCase(), { email: a.email }])).values()];
  const linked = new Map((await events.resolveAttendees(unique, environment)).map((a) => [a.email.toLowerCase(), a.userId]));
  const link = (list: Event['attendees']) => list.map((a) => ({ ...a, userId: linked.get(a.email.toLowerCase()) ?? null }));
  return read.map((e) => ({
    ...e,
    fields: { ...e.fields, attendees: link(e.fields.attendees) },
    exceptions: e.exceptions.map((x) => (x.attendees ? { ...x, attendees: link(x.attendees) } : x)),
  }));
}

export async function importItemsOf(events: Commands, calendarId: string, read: ReadEvent[], environment: 'live' | 'test'): Promise<ImportItem[]> {
  const linked = await linkAttendees(events, read, environment);
  return linked.map((e) => ({
    eventId: eventIdForUid(calendarId, e.uid, e.recurrenceId), icalUid: e.uid, icalRecurrenceId: e.recurrenceId,
    sameAs: e.recurrenceId === null ? ownEventIdOf(e.uid) : null,
    fields: e.fields, exceptions: e.exceptions, cancelled: e.cancelled,
  }));
}
