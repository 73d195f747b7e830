/**
 * iCalendar (RFC 5545) invitations for one booking: METHOD:REQUEST to book or move it, METHOD:CANCEL to call it off,
 * written by the one mapping (services/ical) as the booking's event seen by its guest. The UID stays the same for the
 * life of a booking and SEQUENCE increases with every change, so calendar apps update the event they already have
 * instead of adding another. Times are in UTC: the guest's calendar shows them in the guest's zone.
 */
import { writeCalendar, type WritableEvent } from '../ical';

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

export function icalInvite(invite: IcalInvite): string {
  const event: WritableEvent = {
    id: invite.uid, icalUid: invite.uid, icalRecurrenceId: null, title: invite.summary, description: invite.description,
    location: invite.location, meetingUrl: null, kind: 'appointment', startsAt: invite.startsAt, endsAt: invite.endsAt, timeZone: 'UTC',
    allDay: false, busy: true, recurrenceRule: null, resources: [], reminders: [], exceptions: [],
    // The guest booked the time: their answer is given.
    attendees: [{ email: invite.attendee.email, name: invite.attendee.name, userId: null, response: 'yes' }],
    status: invite.method === 'CANCEL' ? 'cancelled' : invite.tentative ? 'tentative' : 'confirmed', createdAt: invite.stamp, updatedAt: invite.stamp,
    version: invite.sequence + 1,
  };
  return writeCalendar([event], { method: invite.method, organizer: invite.organizer, stamp: invite.stamp });
}
