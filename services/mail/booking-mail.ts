/**
 * What the guest is told about a booking: one message per booking.* domain event, with the invitation as an
 * iCalendar attachment (REQUEST when booked or moved, CANCEL when cancelled; one UID per booking, SEQUENCE =
 * booking version - 1) and links to the pages that cancel or move it, in the text and in the invitation's
 * DESCRIPTION (calendar apps show it beside the event, long after the mail is gone).
 */
import type { z } from 'zod';
import { bookingIn, type Booking, type BookingRescheduled } from '../../contracts/bookings';
import { when } from '../../projections/notification-messages';
import type { RecordedEvent } from '../eventstore/event-store.port';
import { icalInvite } from './ical';
import type { MailContent } from './mail.port';

export const BOOKING_MAIL_TYPES = ['booking.created', 'booking.rescheduled', 'booking.cancelled'] as const;

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

export function bookingMail(event: Pick<RecordedEvent, 'type' | 'data' | 'metadata'>, context: MailContext): OutgoingMail | null {
  const found = bookingOfEvent(event);
  if (!found) return null;
  const { booking: b, previous } = found;
  const at = (instant: string) => when(instant, b.guest.timeZone);
  const title = `${b.meetingTypeName} with ${context.host.name}`;
  const cancelled = event.type === 'booking.cancelled';
  const manage = cancelled ? [] : [`Need another time? ${context.links.reschedule}`, `Cannot make it? ${context.links.cancel}`];
  const subject = cancelled ? `Cancelled: ${title}, ${at(b.startsAt)}`
    : previous ? `Moved: ${title}, now ${at(b.startsAt)}` : `Confirmed: ${title}, ${at(b.startsAt)}`;
  const lines = [
    `Hello ${b.guest.name},`,
    '',
    cancelled ? `${title} on ${at(b.startsAt)} is cancelled${b.cancelledBy === 'host' ? ` by ${context.host.name}` : ''}.`
      : previous ? `${title} has moved to ${at(b.startsAt)} (it was ${at(previous.startsAt)}).`
      : `${title} is booked for ${at(b.startsAt)}.`,
    ...(b.location && !cancelled ? ['', `Where: ${b.location}`] : []),
    ...(b.note && !cancelled ? ['', `Your note: ${b.note}`] : []),
    ...(manage.length ? ['', ...manage] : []),
    '',
    'The attached invitation adds it to your calendar.',
  ];
  const sequence = b.version - 1;
  return {
    to: { name: b.guest.name, address: b.guest.email },
    subject,
    text: lines.join('\n'),
    bookingId: b.id,
    sequence,
    ics: {
      method: cancelled ? 'CANCEL' : 'REQUEST',
      content: icalInvite({
        method: cancelled ? 'CANCEL' : 'REQUEST', uid: `${b.id}@bookings.calendar-service`, sequence,
        stamp: event.metadata.occurredAt, startsAt: b.startsAt, endsAt: b.endsAt, summary: title,
        description: [b.note, manage.join('\n')].filter(Boolean).join('\n\n') || null,
        location: b.location, organizer: context.host, attendee: { name: b.guest.name, email: b.guest.email },
      }),
    },
  };
}
