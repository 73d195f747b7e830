/**
 * iCalendar (RFC 5545) invitations for one event: METHOD:REQUEST to book or move it, METHOD:CANCEL to call it off.
 * The UID stays the same for the life of a booking and SEQUENCE increases with every change, so calendar apps
 * update the event they already have instead of adding another.
 */
export interface IcalInvite {
  method: 'REQUEST' | 'CANCEL';
  uid: string;
  sequence: number;
  /** When this version was made (DTSTAMP). */
  stamp: string;
  startsAt: string;
  endsAt: string;
  summary: string;
  description: string | null;
  location: string | null;
  organizer: { name: string; email: string };
  attendee: { name: string; email: string };
  /** A REQUEST the host has yet to confirm. */
  tentative?: boolean;
}

/** `20261201T140000Z` */
const utc = (instant: string) => new Date(instant).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** TEXT values: backslash, semicolon and comma escaped, line breaks as `\n` (RFC 5545 3.3.11). */
const text = (value: string) => value.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\r?\n/g, '\\n');

/** Parameter values are quoted and may hold no double quote (RFC 5545 3.2). */
const param = (value: string) => `"${value.replace(/["\r\n]/g, '')}"`;

/** Lines longer than 75 octets continue on lines that start with a space (RFC 5545 3.1), never inside a character. */
export function fold(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char);
    if (octets + size > 75) {
      out.push(current);
      current = ' ';
      octets = 1;
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n');
}

export function icalInvite(invite: IcalInvite): string {
  const cancel = invite.method === 'CANCEL';
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Calendar Service//Bookings//EN',
    'CALSCALE:GREGORIAN',
    `METHOD:${invite.method}`,
    'BEGIN:VEVENT',
    `UID:${invite.uid}`,
    `SEQUENCE:${invite.sequence}`,
    `DTSTAMP:${utc(invite.stamp)}`,
    `DTSTART:${utc(invite.startsAt)}`,
    `DTEND:${utc(invite.endsAt)}`,
    `SUMMARY:${text(invite.summary)}`,
    ...(invite.description ? [`DESCRIPTION:${text(invite.description)}`] : []),
    ...(invite.location ? [`LOCATION:${text(invite.location)}`] : []),
    `ORGANIZER;CN=${param(invite.organizer.name)}:mailto:${invite.organizer.email}`,
    `ATTENDEE;CN=${param(invite.attendee.name)};ROLE=REQ-PARTICIPANT;PARTSTAT=ACCEPTED;RSVP=FALSE:mailto:${invite.attendee.email}`,
    `STATUS:${cancel ? 'CANCELLED' : invite.tentative ? 'TENTATIVE' : 'CONFIRMED'}`,
    'TRANSP:OPAQUE',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(fold).join('\r\n')}\r\n`;
}
