/**
 * What the guest is told about a booking: one message per booking.* domain event, with the invitation as an
 * iCalendar attachment (REQUEST when booked, moved or confirmed, TENTATIVE while the host has yet to confirm; CANCEL
 * when cancelled or declined; one UID per booking, SEQUENCE = booking version - 1) and links to the pages that cancel
 * or move it, in the text and in the invitation's DESCRIPTION (calendar apps show it beside the event, long after
 * the mail is gone).
 */
import type { z } from 'zod';
import { bookingIn, type Booking, type BookingRescheduled } from '../../contracts/bookings';
import { when } from '../../projections/notification-messages';
import type { RecordedEvent } from '../eventstore/event-store.port';
import { icalInvite } from './ical';
import type { MailContent } from './mail.port';

export const BOOKING_MAIL_TYPES = ['booking.created', 'booking.rescheduled', 'booking.cancelled', 'booking.confirmed', 'booking.declined'] as const;

export interface OutgoingMail extends MailContent {
  ics: NonNullable<MailContent['ics']>;
  bookingId: string;
  sequence: number;
}

export interface MailContext {
  host: { name: string; email: string };
  /** Absolute URLs of the guest's pages, token included. */
  links: { reschedule: string; cancel: string };
}

/** The booking (and where it was, for a move) of a booking.* event; null for an event of another shape. */
export function bookingOfEvent(event: Pick<RecordedEvent, 'type' | 'data'>): { booking: Booking; previous: { startsAt: string } | null } | null {
  const booking = bookingIn(event.type, event.data);
  if (!booking) return null;
  return { booking, previous: event.type === 'booking.rescheduled' ? (event.data as z.infer<typeof BookingRescheduled>).previous : null };
}

/** The subject and the first sentence, by what happened. */
function told(type: string, b: Booking, title: string, at: (instant: string) => string, host: string, previous: { startsAt: string } | null) {
  const pending = b.status === 'pending' ? ' It awaits the host\'s confirmation: you will hear again.' : '';
  switch (type) {
    case 'booking.cancelled':
      return { subject: `Cancelled: ${title}, ${at(b.startsAt)}`, line: `${title} on ${at(b.startsAt)} is cancelled${b.cancelledBy === 'host' ? ` by ${host}` : ''}.` };
    case 'booking.declined':
      return { subject: `Declined: ${title}, ${at(b.startsAt)}`, line: `${host} could not take ${title} on ${at(b.startsAt)}: the request is declined.` };
    case 'booking.confirmed':
      return { subject: `Confirmed: ${title}, ${at(b.startsAt)}`, line: `${host} confirmed ${title} on ${at(b.startsAt)}.` };
    case 'booking.rescheduled':
      return { subject: `Moved: ${title}, now ${at(b.startsAt)}`, line: `${title} has moved to ${at(b.startsAt)} (it was ${at(previous!.startsAt)}).${pending}` };
    default:
      return b.status === 'pending'
        ? { subject: `Requested: ${title}, ${at(b.startsAt)}`, line: `${title} is requested for ${at(b.startsAt)}.${pending}` }
        : { subject: `Confirmed: ${title}, ${at(b.startsAt)}`, line: `${title} is booked for ${at(b.startsAt)}.` };
  }
}

export function bookingMail(event: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>, context: MailContext): OutgoingMail | null {
  const found = bookingOfEvent(event);
  if (!found) return null;
  const { booking: b, previous } = found;
  const at = (instant: string) => when(instant, b.guest.timeZone);
  const title = `${b.meetingTypeName} with ${context.host.name}`;
  const cancelled = event.type === 'booking.cancelled' || event.type === 'booking.declined';
  const manage = cancelled ? [] : [`Need another time? ${context.links.reschedule}`, `Cannot make it? ${context.links.cancel}`];
  const { subject, line } = told(event.type, b, title, at, context.host.name, previous);
  const lines = [
    `Hello ${b.guest.name},`,
    '',
    line,
    ...(b.location && !cancelled ? ['', `Where: ${b.location}`] : []),
    ...(b.note && !cancelled ? ['', `Your note: ${b.note}`] : []),
    ...(manage.length ? ['', ...manage] : []),
    '',
    'The attached invitation adds it to your calendar.',
  ];
  const sequence = b.version - 1;
  const method = cancelled ? 'CANCEL' : 'REQUEST';
  return {
    to: { name: b.guest.name, address: b.guest.email },
    subject,
    text: lines.join('\n'),
    bookingId: b.id,
    sequence,
    ics: {
      method,
      content: icalInvite({
        method, uid: `${b.id}@bookings.calendar-service`, sequence, stamp: event.metadata.occurredAt, startsAt: b.startsAt,
        endsAt: b.endsAt, summary: title, description: [b.note, manage.join('\n')].filter(Boolean).join('\n\n') || null,
        location: b.location, organizer: context.host, attendee: { name: b.guest.name, email: b.guest.email },
        tentative: b.status === 'pending',
      }),
    },
  };
}
