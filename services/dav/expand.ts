/**
 * CALDAV:expand (RFC 4791 9.6.5): a recurring object answered as its occurrences in a range, each a VEVENT with its
 * RECURRENCE-ID and no RRULE, EXDATE or RDATE, in UTC. Each occurrence is written by the shared mapping as an event
 * of the UID dated by its original start (what it writes as an override), its exception's changes applied.
 */
import type { Event } from '../../contracts/events';
import { writeCalendar, type WritableEvent } from '../ical';
import { occurrences } from '../time/recurrence';
import type { DavObject } from './collections';

/** At most this many occurrences of one object are written out. */
export const MAX_EXPANDED = 1000;

const iso = (ms: number) => new Date(ms).toISOString();

function occurrencesOf(e: Event, from: number, to: number): WritableEvent[] {
  // All-day events stay dates of their own zone; timed ones are written in UTC.
  const timeZone = e.allDay ? e.timeZone : 'UTC';
  if (!e.recurrenceRule) return [{ ...e, timeZone }];
  return occurrences(e, from, to).slice(0, MAX_EXPANDED).map((o) => ({
    ...e, ...(o.change ?? {}), startsAt: iso(o.start), endsAt: iso(o.end), timeZone, recurrenceRule: null, exceptions: [],
    icalRecurrenceId: iso(o.original), status: e.status,
  }));
}

export function expandedText(object: DavObject, range: { from: number; to: number }, organizer: { name: string | null; email: string } | null): string {
  const events = [object.series, ...object.rdates].filter((e): e is Event => e !== null);
  return writeCalendar(events.flatMap((e) => occurrencesOf(e, range.from, range.to)), { organizer });
}
