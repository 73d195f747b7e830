import type { z } from 'zod';
import {
  bookingOperations, isLive, meetingTypeOperations, publicBookingOperations, type Booking, type ListBookingsQuery, type MeetingType, type SlotsQuery,
} from '../../contracts/bookings';
import { findOperation } from '../../contracts/operation';
import type { PageQuery } from '../../contracts/paging';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { tokenMatches, tokenOf } from '../../services/rules/manage-token';
import { readModelSources } from '../availability/sources';
import { routineBlocks } from '../routines/routines.queries';
import {
  bookingsPage, guestView, hostBooking, meetingTypeOf, meetingTypesPage, publicType, publicTypeView, storedBooking,
} from './bookings.queries';
import { planOf, slotsFor, type SlotInputs } from './slots';

type IdParams = { id: string };
type PageParams = { username: string; slug: string };

/** Where a booking could move: the slots of its type for its hosts, its own time free; none once it is cancelled or declined. */
async function rescheduleOptions(inputs: SlotInputs, booking: Booking, type: MeetingType, query: SlotsQuery, now: number) {
  const slots = await slotsFor(inputs, await planOf(inputs, type, booking.hostIds), query, now, booking);
  return { ...slots, slots: isLive(booking.status) ? slots.slots : [] };
}

export function bookingsReadRoutes(app: AppContext) {
  const inputs: SlotInputs = { sources: readModelSources(app.readModels, routineBlocks), models: app.readModels };

  return [
    route<unknown, PageQuery>(findOperation(meetingTypeOperations, 'get', '/meeting-types'), async ({ query, principal }) => ({
      status: 200, body: await meetingTypesPage(app.readModels, principal!.userId, query),
    })),

    route<unknown, unknown, PageParams>(findOperation(publicBookingOperations, 'get', '/public/{username}/{slug}'), async ({ params }) => ({
      status: 200, body: publicTypeView(await publicType(app.readModels, params.username, params.slug)),
    })),

    route<unknown, SlotsQuery, PageParams>(findOperation(publicBookingOperations, 'get', '/public/{username}/{slug}/slots'), async ({ params, query }) => {
      const { type, hosts } = await publicType(app.readModels, params.username, params.slug);
      return { status: 200, body: await slotsFor(inputs, await planOf(inputs, type, hosts.map((h) => h.id)), query, Date.now()) };
    }),

    route<unknown, SlotsQuery, IdParams>(findOperation(publicBookingOperations, 'get', '/public/bookings/{id}/reschedule'), async ({ params, query, header }) => {
      const token = tokenOf(header);
      const stored = await storedBooking(app.readModels, params.id);
      const type = stored && tokenMatches(token, stored.tokenHash) ? await meetingTypeOf(app.readModels, stored.booking) : null;
      if (!stored || !type) throw notFound('Booking');
      const options = await rescheduleOptions(inputs, stored.booking, type, query, Date.now());
      return { status: 200, body: { booking: await guestView(app.readModels, stored.booking), ...options } };
    }),

    route<unknown, z.infer<typeof ListBookingsQuery>>(findOperation(bookingOperations, 'get', '/bookings'), async ({ query, principal }) => ({
      status: 200, body: await bookingsPage(app.readModels, principal!.userId, query),
    })),

    route<unknown, SlotsQuery, IdParams>(findOperation(bookingOperations, 'get', '/bookings/{id}/reschedule'), async ({ params, query, principal }) => {
      const booking = await hostBooking(app.readModels, principal!.userId, params.id);
      const type = booking && (await meetingTypeOf(app.readModels, booking));
      if (!booking || !type) throw notFound('Booking');
      return { status: 200, body: { bookingId: booking.id, ...(await rescheduleOptions(inputs, booking, type, query, Date.now())) } };
    }),
  ];
}
