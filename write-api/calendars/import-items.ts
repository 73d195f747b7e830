/**
 * An iCalendar text as the items of an import (import.rules.ts): read through the one mapping (services/ical),
 * each event under its id derived from (calendar, UID), its attendees linked to users by email as REST links them.
 * The import route and each fetch of a subscription (services/subscriptions) read files this way.
 */
import type { Event } from '../../contracts/events';
import type { AppContext } from '../../services/app-context';
import { eventIdForUid, ownEventIdOf, readCalendarOffThread, type ReadEvent, type Skipped } from '../../services/ical';
import { eventCommands } from '../events/event-commands';
import type { ImportItem } from './import.rules';

export interface ReadItems {
  items: ImportItem[];
  skipped: Skipped[];
}

export function importItemReader(app: AppContext) {
  const events = eventCommands(app);

  /** The attendees of the file's events linked to users as REST links them (one lookup for the whole file). */
  async function linkAttendees(read: ReadEvent[], environment: 'live' | 'test') {
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

  /** Reads each text (several: the objects of a CalDAV collection) into the items of `calendarId`. */
  return async function readItems(texts: string[], calendarId: string, defaultZone: string, environment: 'live' | 'test'): Promise<ReadItems> {
    const skipped: Skipped[] = [];
    const read: ReadEvent[] = [];
    for (const text of texts) {
      const one = await readCalendarOffThread(text, { defaultZone });
      skipped.push(...one.skipped);
      read.push(...one.objects.flatMap((o) => o.events));
    }
    const linked = await linkAttendees(read, environment);
    const items = linked.map((e): ImportItem => ({
      eventId: eventIdForUid(calendarId, e.uid, e.recurrenceId), icalUid: e.uid, icalRecurrenceId: e.recurrenceId,
      sameAs: e.recurrenceId === null ? ownEventIdOf(e.uid) : null,
      fields: e.fields, exceptions: e.exceptions, cancelled: e.cancelled,
    }));
    return { items, skipped };
  };
}
