/**
 * Booking, moving and cancelling: the route checks the time against the meeting type with the availability engine,
 * then the host's Space schedule decides (booking.rules.ts), so a slot is taken once and the calendar event changes
 * with the booking.
 */
import {
  bookingOperations, publicBookingOperations, type Booking, type MeetingType, type PublicBookingBody, type RescheduleBody,
} from '../../contracts/bookings';
import { findOperation } from '../../contracts/operation';
import { defaultRemindersOf } from '../../contracts/reminders';
import { guestBookingOf, guestView, meetingTypeOf, publicType, storedBooking, type StoredBooking } from '../../read-api/bookings/bookings.queries';
import { hostFor, requireSlot } from '../../read-api/bookings/slots';
import { readModelSources } from '../../read-api/availability/sources';
import { routineBlocks } from '../../read-api/routines/routines.queries';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { AppContext } from '../../services/app-context';
import { decided, type Handled } from '../../services/commands/command-handler';
import { notFound } from '../../services/errors';
import { route, type Input } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { lookupCaughtUp } from '../schedule/locate';
import { bookingCancelled, type BookingActor, type BookingCommand, type BookingEvent, type Buffers } from '../schedule/booking.rules';
import { scheduleDecider, scheduleStream } from '../schedule/schedule.decider';
import { manageTokenFor, manageTokenHash, tokenMatches, tokenOf } from '../../services/rules/manage-token';

type AnyInput = Input<unknown, unknown, unknown>;
type IdParams = { id: string };
type PageParams = { username: string; slug: string };

const buffersOf = (type: MeetingType): Buffers => ({ beforeMinutes: type.bufferBeforeMinutes, afterMinutes: type.bufferAfterMinutes });
const iso = (ms: number) => new Date(ms).toISOString();

export function bookingsWriteRoutes(app: AppContext) {
  const sources = readModelSources(app.readModels, routineBlocks);

  const run = (input: AnyInput, spaceId: string, command: BookingCommand) =>
    app.commands.handle(scheduleStream(spaceId), scheduleDecider, command, {
      userId: input.principal?.userId ?? null, commandId: input.commandId, correlationId: input.requestId, spaceId,
    });

  /** The booking a command's result leaves (a cancellation of a cancelled booking decides nothing). */
  const bookingAfter = async (result: Handled<{ type: string; data: unknown }>, spaceId: string, id: string): Promise<Booking> => {
    const last = [...result.events].reverse().find((e) => e.type.startsWith('booking.')) as BookingEvent | undefined;
    if (last?.type === 'booking.rescheduled') return last.data.data;
    if (last?.type === 'booking.cancelled') return last.data;
    return (await app.commands.load(scheduleStream(spaceId), scheduleDecider)).state.bookings.get(id)!.booking;
  };

  const locate = async (id: string, allowed: (stored: StoredBooking) => boolean): Promise<Booking> => {
    const stored = await lookupCaughtUp(app, () => storedBooking(app.readModels, id));
    if (!stored || !allowed(stored)) throw notFound('Booking');
    return stored.booking;
  };
  const asHost = (input: AnyInput, id: string) =>
    locate(id, (s) => s.booking.hostId === input.principal!.userId).then((booking) => ({ booking, actor: { kind: 'host', userId: input.principal!.userId } as BookingActor }));
  const asGuest = (input: AnyInput, id: string) => {
    const token = tokenOf(input.header);
    return locate(id, (s) => tokenMatches(token, s.tokenHash)).then((booking) => ({ booking, actor: { kind: 'guest', tokenHash: manageTokenHash(token) } as BookingActor }));
  };

  const reschedule = async (input: AnyInput, booking: Booking, actor: BookingActor, startsAt: string) => {
    if (booking.status === 'cancelled') throw bookingCancelled();
    const type = await meetingTypeOf(app.readModels, booking);
    if (!type) throw notFound('Booking');
    const now = Date.now();
    const start = Date.parse(startsAt);
    const end = await requireSlot(sources, await hostFor(sources, booking.hostId), type, start, now, booking.eventId);
    const result = await run(input, booking.spaceId, {
      type: 'RescheduleBooking', bookingId: booking.id, actor, startsAt: iso(start), endsAt: iso(end), buffers: buffersOf(type), now: iso(now),
    });
    return { booking: await bookingAfter(result, booking.spaceId, booking.id), position: result.position };
  };

  const cancel = async (input: AnyInput, booking: Booking, actor: BookingActor) => {
    const result = await run(input, booking.spaceId, { type: 'CancelBooking', bookingId: booking.id, actor, now: new Date().toISOString() });
    return { booking: await bookingAfter(result, booking.spaceId, booking.id), position: result.position };
  };

  const forGuest = async (status: number, changed: { booking: Booking; position: number | null }) => ({
    status, body: { booking: await guestView(app.readModels, changed.booking) }, position: changed.position,
  });

  return [
    route<PublicBookingBody, unknown, PageParams>(findOperation(publicBookingOperations, 'post', '/public/{username}/{slug}/bookings'), async (input) => {
      const page = await publicType(app.readModels, input.params.username, input.params.slug);
      const { host, type } = page;
      const b = input.body;
      const now = Date.now();
      const start = Date.parse(b.startsAt);
      const end = await requireSlot(sources, await hostFor(sources, host.id), type, start, now);
      const calendarId = type.calendarId ?? host.defaultCalendarId;
      const calendar = await lookupCaughtUp(app, async () => (await app.readModels.docs(SCHEDULE))('calendars').get(calendarId));
      if (!calendar) throw notFound('Calendar');
      const bookingId = deterministicUuid(input.commandId, 'booking');
      const manageToken = manageTokenFor(app.serverKeys.current, bookingId);
      const result = await run(input, calendar.spaceId as string, {
        type: 'BookSlot',
        booking: {
          id: bookingId, meetingTypeId: type.id, meetingTypeName: type.name, hostId: host.id, calendarId,
          eventId: deterministicUuid(input.commandId, 'booking-event'), startsAt: iso(start), endsAt: iso(end), timeZone: host.timeZone,
          guest: { name: b.guest.name, email: b.guest.email, timeZone: b.timeZone ?? host.timeZone }, note: b.note ?? null,
          location: type.location,
        },
        title: `${type.name} with ${b.guest.name}`,
        buffers: buffersOf(type),
        reminders: defaultRemindersOf(host.preferences),
        tokenHash: manageTokenHash(manageToken),
        now: iso(now),
      });
      const booking = decided(result.events, 'booking.created') as Booking;
      return {
        status: 201,
        body: { booking: guestBookingOf(booking, page), manageToken },
        position: result.position,
      };
    }),

    route<unknown, unknown, IdParams>(findOperation(publicBookingOperations, 'post', '/public/bookings/{id}/cancel'), async (input) => {
      const { booking, actor } = await asGuest(input, input.params.id);
      return forGuest(200, await cancel(input, booking, actor));
    }),

    route<RescheduleBody, unknown, IdParams>(findOperation(publicBookingOperations, 'post', '/public/bookings/{id}/reschedule'), async (input) => {
      const { booking, actor } = await asGuest(input, input.params.id);
      return forGuest(200, await reschedule(input, booking, actor, input.body.startsAt));
    }),

    route<unknown, unknown, IdParams>(findOperation(bookingOperations, 'post', '/bookings/{id}/cancel'), async (input) => {
      const { booking, actor } = await asHost(input, input.params.id);
      const changed = await cancel(input, booking, actor);
      return { status: 200, body: { booking: changed.booking }, position: changed.position };
    }),

    route<RescheduleBody, unknown, IdParams>(findOperation(bookingOperations, 'post', '/bookings/{id}/reschedule'), async (input) => {
      const { booking, actor } = await asHost(input, input.params.id);
      const changed = await reschedule(input, booking, actor, input.body.startsAt);
      return { status: 200, body: { booking: changed.booking }, position: changed.position };
    }),
  ];
}
