/**
 * Reads the messages the service sends as a mail client would: mailparser for the MIME structure and headers,
 * ical.js for the iCalendar parts (RFC 5545), so the tests check what real clients will make of them.
 */
import ICAL from 'ical.js';
import { simpleParser, type Attachment, type ParsedMail } from 'mailparser';

export interface CalendarPart {
  /** The part's media type without parameters, e.g. `text/calendar`. */
  type: string;
  /** The Content-Type parameters (`charset`, `method`, `name`...), names in lower case. */
  params: Record<string, string>;
  filename: string | null;
  disposition: string | null;
  /** The iCalendar text as sent (folded lines and all). */
  text: string;
  calendar: InstanceType<typeof ICAL.Component>;
}

export interface ReadMail {
  mail: ParsedMail;
  /** Every part that carries iCalendar, whatever it is typed as (text/calendar, application/ics or a .ics file). */
  calendars: CalendarPart[];
}

const isCalendar = (a: Attachment) => /^(text\/calendar|application\/ics)$/i.test(a.contentType) || /\.ics$/i.test(a.filename ?? '');

function calendarPart(a: Attachment): CalendarPart {
  const header = a.headers.get('content-type') as { value: string; params: Record<string, string> };
  const text = a.content.toString('utf8');
  return {
    type: header.value.toLowerCase(), params: Object.fromEntries(Object.entries(header.params).map(([k, v]) => [k.toLowerCase(), v])),
    filename: a.filename ?? null, disposition: a.contentDisposition ?? null, text, calendar: new ICAL.Component(ICAL.parse(text)),
  };
}

export async function readMail(raw: string | Buffer): Promise<ReadMail> {
  const mail = await simpleParser(raw);
  return { mail, calendars: mail.attachments.filter(isCalendar).map(calendarPart) };
}

/** The one VEVENT of an invitation. */
export const veventOf = (part: CalendarPart) => part.calendar.getFirstSubcomponent('vevent')!;
