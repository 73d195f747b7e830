/**
 * iCalendar (RFC 5545) out and in (addendum, "iCalendar (RFC 5545) out and in"): a calendar's secret feed address,
 * the feed itself, and importing a .ics file into a calendar. The mapping: services/ical; the decisions:
 * docs/icalendar.md.
 */
import { z } from 'zod';
import { DateTime, ErrorEnvelope, IdParams, Uuid } from './common';
import { writeRefused } from './events';
import { op } from './operation';

export const FEED_PAST_DAYS = 30;
export const IMPORT_MAX_BYTES = 10_000_000;
export const IMPORT_MAX_COMPONENTS = 10_000;
/** Events one feed lists at most (the earliest by start are kept). */
export const FEED_MAX_EVENTS = 50_000;

const feedExample = {
  url: 'https://cal.example.com/ical/cf_Q2FsZW5kYXIgZmVlZCB0b2tlbiBleGFtcGxlIDAwMDAwMDA.ics',
  webcalUrl: 'webcal://cal.example.com/ical/cf_Q2FsZW5kYXIgZmVlZCB0b2tlbiBleGFtcGxlIDAwMDAwMDA.ics',
  createdAt: '2026-03-10T14:05:00.000Z',
};

export const Feed = z
  .object({
    url: z.string().describe('`{PUBLIC_URL}/ical/{token}.ics`: secret, unguessable; the token is the only credential'),
    webcalUrl: z.string().describe('The same address as `webcal://`, which calendar apps open as a subscription'),
    createdAt: DateTime,
  })
  .meta({ id: 'Feed', examples: [feedExample] });

export const FeedResponse = z.object({ feed: Feed }).meta({ id: 'FeedResponse' });

/** What the feed aggregate records: the token only as its hash. */
export const FeedIssued = z.object({
  calendarId: Uuid, spaceId: Uuid, tokenHash: z.string(), previousTokenHash: z.string().nullable(), generation: z.number().int(),
  createdAt: DateTime,
});
export const FeedRevoked = z.object({ calendarId: Uuid, spaceId: Uuid, tokenHash: z.string(), generation: z.number().int(), revokedAt: DateTime });

export const FeedTokenParams = z.object({
  token: z.string().min(1).max(200).describe('The token of a feed address (the part before `.ics`)'),
});

export const ImportBody = z
  .string()
  .min(1)
  .meta({
    id: 'ImportBody',
    description: `An iCalendar (RFC 5545) text, UTF-8: at most ${IMPORT_MAX_BYTES / 1e6} MB and ${IMPORT_MAX_COMPONENTS} components`,
    // Only a parser tells iCalendar from other text: test tools send the example as the valid case.
    'x-checked-by-server': true,
    examples: [[
      'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Example//Example//EN', 'BEGIN:VEVENT', 'UID:standup-1@example.com',
      'DTSTAMP:20260301T080000Z', 'DTSTART;TZID=Europe/Berlin:20260302T090000', 'DTEND;TZID=Europe/Berlin:20260302T091500',
      'RRULE:FREQ=WEEKLY;BYDAY=MO,WE', 'SUMMARY:Standup', 'END:VEVENT', 'END:VCALENDAR', '',
    ].join('\r\n')],
  });

export const ImportReport = z
  .object({
    imported: z.number().int().describe('Events created'),
    updated: z.number().int().describe('Events changed (or cancelled) to match the file'),
    skipped: z.array(z.object({
      uid: z.string().nullable().describe('The UID of what was skipped (null: it had none)'),
      reason: z.string(),
    })).describe('What was not imported, and why'),
  })
  .meta({
    id: 'ImportReport',
    examples: [{ imported: 41, updated: 2, skipped: [{ uid: 'chores@example.com', reason: 'VTODO components are not imported (only VEVENT)' }] }],
  });

export const ICalendarText = z.string().meta({
  id: 'ICalendarText',
  description: 'An iCalendar (RFC 5545) text: CRLF lines folded at 75 octets, UTF-8',
  examples: [[
    'BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Calendar Service//Calendar Service//EN', 'CALSCALE:GREGORIAN',
    'X-WR-CALNAME:Calendar', 'BEGIN:VEVENT', 'UID:3c5e7a9b-1d3f-4b5d-9e7f-1a3b5c7d9e1f@calendar-service',
    'DTSTAMP:20260310T140500Z', 'DTSTART:20260316T090000Z', 'DTEND:20260316T100000Z', 'SUMMARY:Weekly planning',
    'END:VEVENT', 'END:VCALENDAR', '',
  ].join('\r\n')],
});

const notFound = { description: 'No such calendar of the caller', schema: ErrorEnvelope };

export const icalOperations = [
  op({
    method: 'post', path: '/calendars/{id}/feed', tag: 'Calendars', summary: 'Give the calendar a secret iCalendar feed address',
    description:
      'Any calendar app can subscribe to the address (`url`, or `webcalUrl`). Calling this again replaces the address: ' +
      'the old one answers 404 at once. The address is shown only in this answer (the service keeps a hash of its token).',
    params: IdParams,
    responses: { 201: { description: 'The new address', schema: FeedResponse }, 404: notFound },
  }),
  op({
    method: 'delete', path: '/calendars/{id}/feed', tag: 'Calendars', summary: 'Revoke the calendar\'s feed address',
    params: IdParams,
    responses: { 204: { description: 'Revoked: the address answers 404' }, 404: { description: 'No such calendar of the caller, or it has no feed', schema: ErrorEnvelope } },
  }),
  op({
    method: 'post', path: '/calendars/{id}/import', tag: 'Calendars', summary: 'Import an iCalendar (.ics) file into the calendar',
    description:
      'Send the file as the body with `Content-Type: text/calendar`. Idempotent by UID: importing the same file again ' +
      'changes nothing; a changed file updates (or, with STATUS:CANCELLED, cancels) the events it carried, through the ' +
      'same events, webhooks and /sync as REST. Events of the calendar that the file does not name are left alone, and ' +
      'an event cancelled here is not brought back. RRULE, EXDATE, RDATE (each RDATE becomes one more event under the ' +
      'same UID, `icalRecurrenceId` set), RECURRENCE-ID overrides and TZID (IANA, or a VTIMEZONE whose TZID, ' +
      'X-LIC-LOCATION or Windows name maps to one) are honoured; floating and all-day times are read in the file\'s ' +
      'X-WR-TIMEZONE, else the owner\'s zone. Imported events may overlap and book no resource. VALARMs become reminders (at most 5, none after the start). ' +
      'What cannot be imported (VTODO and other components, a rule the limits of `recurrenceRule` refuse, an unknown ' +
      'zone, a VTIMEZONE with offsets beyond ±18 h, a field over the limits of POST /events, an override that matches ' +
      'no occurrence, series past the file\'s 2,000th) is listed in `skipped` with the reason. All or nothing: the ' +
      'events are written in one append. ' +
      `A text that is not iCalendar, or has more than ${IMPORT_MAX_COMPONENTS} components (VTIMEZONEs aside) or ` +
      'components nested more than 3 deep: 400 `invalid_request` (`details.issues[0].message` says why); more than 10 MB: 413.',
    params: IdParams, body: ImportBody, bodyContentTypes: ['text/calendar'], heavy: true,
    responses: {
      200: { description: 'What was imported, updated and skipped', schema: ImportReport },
      400: { description: 'Not iCalendar, or beyond the bounds (`invalid_request`, the reason in `details.issues`)', schema: ErrorEnvelope },
      403: writeRefused,
      404: notFound,
    },
  }),
  op({
    method: 'get', path: '/ical/{token}.ics', tag: 'Calendars', summary: 'A calendar\'s iCalendar feed (the secret address)',
    description:
      'No credential: the token is one. Served at `{PUBLIC_URL}/ical/{token}.ics` (the address POST /calendars/{id}/feed ' +
      `gives) and here. \`text/calendar; charset=utf-8\`: every event of the calendar from ${FEED_PAST_DAYS} days back on ` +
      `(at most ${FEED_MAX_EVENTS}), series as RRULE with EXDATE and RECURRENCE-ID overrides, the events RDATEs made as ` +
      'RDATE, a VTIMEZONE (from the IANA data) for each zone used, reminders as VALARM, attendees with ORGANIZER. The ' +
      'answer carries an `ETag` (it changes with the calendar, the address and the day); `If-None-Match` with it: 304.',
    params: FeedTokenParams,
    responses: {
      200: { description: 'The calendar, with an ETag', schema: ICalendarText, contentType: 'text/calendar' },
      304: { description: 'Not modified since the ETag sent as If-None-Match' },
      404: { description: 'No such feed address (never issued, replaced or revoked)', schema: ErrorEnvelope },
    },
  }),
];
