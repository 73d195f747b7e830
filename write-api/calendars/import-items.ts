/**
 * iCalendar events as the items of an import (import.rules.ts): each under its id derived from (calendar, UID[,
 * RECURRENCE-ID]), its attendees linked to users by email as REST links them (one lookup for the whole text). The
 * import route and each fetch of a subscription read whole texts (`importItemReader`); a CalDAV PUT has read its one
 * object already (`importItemsOf`). All of them write the same command.
 */
import type { Event } from '../../contracts/events';
import type { AppContext } from '../../services/app-context';
import { eventIdForUid, ownEventIdOf, readCalendarOffThread, type ReadEvent, type Skipped } from '../../services/ical';
import { eventCommands } from '../events/event-commands';
import type { ImportItem } from './import.rules';

type Commands = Pick<ReturnType<typeof eventCommands>, 'resolveAttendees'>;

export interface ReadItems {
  items: ImportItem[];
  skipped: Skipped[];
}

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

/** Events already read, as the items of `calendarId`. */
export async function importItemsOf(events: Commands, calendarId: string, read: ReadEvent[], environment: 'live' | 'test'): Promise<ImportItem[]> {
  const linked = await linkAttendees(events, read, environment);
  return linked.map((e) => ({
    eventId: eventIdForUid(calendarId, e.uid, e.recurrenceId), icalUid: e.uid, icalRecurrenceId: e.recurrenceId,
    sameAs: e.recurrenceId === null ? ownEventIdOf(e.uid) : null,
    fields: e.fields, exceptions: e.exceptions, cancelled: e.cancelled,
  }));
}

export function importItemReader(app: AppContext) {
  const events = eventCommands(app);
  /** Reads each text (several: the objects of a CalDAV collection) into the items of `calendarId`. */
  return async function readItems(texts: string[], calendarId: string, defaultZone: string, environment: 'live' | 'test'): Promise<ReadItems> {
    const skipped: Skipped[] = [];
    const read: ReadEvent[] = [];
    for (const text of texts) {
      const one = await readCalendarOffThread(text, { defaultZone });
      skipped.push(...one.skipped);
      read.push(...one.objects.flatMap((o) => o.events));
    }
    return { items: await importItemsOf(events, calendarId, read, environment), skipped };
  };
}
