/**
 * The inbox: what waits for the person. Invitations until they are answered; booking requests (new bookings of
 * the person's meeting types) until they start or are cancelled.
 */
import { z } from 'zod';
import { Booking, BOOKING_EXAMPLE } from './bookings';
import { DateTime } from './common';
import { Event } from './events';
import { op } from './operation';

export const INBOX_LIMIT = 500;

const bookingItemExample = { id: BOOKING_EXAMPLE.id, type: 'booking', booking: BOOKING_EXAMPLE, createdAt: BOOKING_EXAMPLE.createdAt };

export const InboxItem = z
  .discriminatedUnion('type', [
    z.object({ id: z.string(), type: z.literal('invitation'), event: Event, createdAt: DateTime })
      .describe('An event that lists the person as an attendee, not answered yet'),
    z.object({ id: z.string(), type: z.literal('booking'), booking: Booking, createdAt: DateTime })
      .describe("A booking of one of the person's meeting types that has not started and is not cancelled"),
  ])
  .meta({
    id: 'InboxItem',
    examples: [bookingItemExample],
  });

export const InboxResponse = z
  .object({ items: z.array(InboxItem).describe(`Newest first; at most ${INBOX_LIMIT} of each type`) })
  .meta({ id: 'InboxResponse', examples: [{ items: [bookingItemExample] }] });

export const InboxCount = z
  .object({ count: z.number().int().describe('The number of items GET /inbox lists') })
  .meta({ id: 'InboxCount', examples: [{ count: 3 }] });

export const inboxOperations = [
  op({
    method: 'get', path: '/inbox', tag: 'Events', summary: 'Invitations to answer and booking requests',
    responses: { 200: { description: 'Inbox', schema: InboxResponse } },
  }),
  op({
    method: 'get', path: '/inbox/count', tag: 'Events', summary: 'Number of inbox items (badge)',
    responses: { 200: { description: 'Count', schema: InboxCount } },
  }),
];
