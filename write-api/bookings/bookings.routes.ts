/**
 * Booking, moving, cancelling and answering over HTTP: the guest with the manage token, the hosts and the type's
 * owner with bookings:write. What is decided where: booking-flow.ts.
 */
import {
  bookingOperations, publicBookingOperations, type Booking, type PublicBookingBody, type RescheduleBody,
} from '../../contracts/bookings';
import { findOperation } from '../../contracts/operation';
import { guestBookingOf, guestView, meetingTypeOf, publicType, storedBooking, type StoredBooking } from '../../read-api/bookings/bookings.queries';
import { lengthFor } from '../../read-api/bookings/slots';
import { readModelSources } from '../../read-api/availability/sources';
import { routineBlocks } from '../../read-api/routines/routines.queries';
import type { AppContext } from '../../services/app-context';
import { decided } from '../../services/commands/command-handler';
import { notFound } from '../../services/errors';
import { route, type Input } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { manageTokenFor, manageTokenHash, tokenMatches, tokenOf } from '../../services/rules/manage-token';
import { lookupCaughtUp } from '../schedule/locate';
import type { BookingActor } from '../schedule/booking.rules';
import { scheduleDecider, scheduleStream } from '../schedule/schedule.decider';
import { bookingFlow, type Step } from './booking-flow';
import { targetOf } from './booking-steps';

type AnyInput = Input<unknown, unknown, unknown>;
type IdParams = { id: string };
type PageParams = { username: string; slug: string };

const stepOf = (input: AnyInput): Step => ({ userId: input.principal?.userId ?? null, commandId: input.commandId, correlationId: input.requestId });

export function bookingsWriteRoutes(app: AppContext) {
  const inputs = { sources: readModelSources(app.readModels, routineBlocks), models: app.readModels };
  const flow = bookingFlow(app, inputs);

  const locate = async (id: string, allowed: (stored: StoredBooking) => boolean) => {
    const stored = await lookupCaughtUp(app, () => storedBooking(app.readModels, id));
    const type = stored && allowed(stored) ? await meetingTypeOf(app.readModels, stored.booking) : null;
    if (!stored || !type) throw notFound('Booking');
    return { booking: stored.booking, type };
  };
  const asHost = async (input: AnyInput, id: string) => {
    const userId = input.principal!.userId;
    const found = await locate(id, (s) => s.booking.ownerId === userId || s.booking.hostIds.includes(userId));
    return { ...found, actor: { kind: 'host', userId } as BookingActor };
  };
  const asGuest = async (input: AnyInput, id: string) => {
    const token = tokenOf(input.header);
    const found = await locate(id, (s) => tokenMatches(token, s.tokenHash));
    return { ...found, actor: { kind: 'guest', tokenHash: manageTokenHash(token) } as BookingActor };
  };

  /** The booking as a host sees it: a collective booking's other hosts with their own event of it. */
  const seenBy = async (booking: Booking, userId: string): Promise<Booking> => {
    if (booking.hostId === userId || !booking.hostIds.includes(userId)) return booking;
    const target = await targetOf(app, { ownerId: booking.ownerId, calendarId: null }, userId);
    const part = (await app.commands.load(scheduleStream(target.spaceId), scheduleDecider)).state.parts.get(booking.id);
    return part ? { ...booking, eventId: part.eventId, calendarId: part.calendarId, spaceId: part.spaceId } : booking;
  };

  const forGuest = async (changed: { booking: Booking; position: number | null }) => ({
    status: 200, body: { booking: await guestView(app.readModels, changed.booking) }, position: changed.position,
  });
  const forHost = async (input: AnyInput, changed: { booking: Booking; position: number | null }) => ({
    status: 200, body: { booking: await seenBy(changed.booking, input.principal!.userId) }, position: changed.position,
  });

  const now = () => new Date().toISOString();

  return [
    route<PublicBookingBody, unknown, PageParams>(findOperation(publicBookingOperations, 'post', '/public/{username}/{slug}/bookings'), async (input) => {
      const { host: owner, type, hosts } = await publicType(app.readModels, input.params.username, input.params.slug);
      const b = input.body;
      const bookingId = deterministicUuid(input.commandId, 'booking');
      const manageToken = manageTokenFor(app.serverKeys.current, bookingId);
      const result = await flow.book(type, hosts.map((h) => h.id), {
        bookingId, startsAt: Date.parse(b.startsAt), durationMinutes: lengthFor(type, b.durationMinutes, 'body.durationMinutes'),
        guest: { name: b.guest.name, email: b.guest.email, timeZone: b.timeZone ?? owner.timeZone }, note: b.note ?? null,
        tokenHash: manageTokenHash(manageToken), now: Date.now(),
      }, stepOf(input));
      const booking = decided(result.events, 'booking.created') as Booking;
      return { status: 201, body: { booking: guestBookingOf(booking, type, hosts.filter((h) => booking.hostIds.includes(h.id))), manageToken }, position: result.position };
    }),

    route<unknown, unknown, IdParams>(findOperation(publicBookingOperations, 'post', '/public/bookings/{id}/cancel'), async (input) => {
      const { booking, type, actor } = await asGuest(input, input.params.id);
      return forGuest(await flow.onBooking(booking, type, { type: 'CancelBooking', bookingId: booking.id, actor, now: now() }, stepOf(input)));
    }),

    route<RescheduleBody, unknown, IdParams>(findOperation(publicBookingOperations, 'post', '/public/bookings/{id}/reschedule'), async (input) => {
      const { booking, type, actor } = await asGuest(input, input.params.id);
      return forGuest(await flow.reschedule(booking, type, actor, Date.parse(input.body.startsAt), stepOf(input)));
    }),

    route<unknown, unknown, IdParams>(findOperation(bookingOperations, 'post', '/bookings/{id}/cancel'), async (input) => {
      const { booking, type, actor } = await asHost(input, input.params.id);
      return forHost(input, await flow.onBooking(booking, type, { type: 'CancelBooking', bookingId: booking.id, actor, now: now() }, stepOf(input)));
    }),

    route<RescheduleBody, unknown, IdParams>(findOperation(bookingOperations, 'post', '/bookings/{id}/reschedule'), async (input) => {
      const { booking, type, actor } = await asHost(input, input.params.id);
      return forHost(input, await flow.reschedule(booking, type, actor, Date.parse(input.body.startsAt), stepOf(input)));
    }),

    ...(['confirm', 'decline'] as const).map((answer) =>
      route<unknown, unknown, IdParams>(findOperation(bookingOperations, 'post', `/bookings/{id}/${answer}`), async (input) => {
        const { booking, type, actor } = await asHost(input, input.params.id);
        const command = { type: 'AnswerBooking' as const, bookingId: booking.id, actor, answer, now: now() };
        return forHost(input, await flow.onBooking(booking, type, command, stepOf(input)));
      })),
  ];
}
