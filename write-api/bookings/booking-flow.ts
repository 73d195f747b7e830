/**
 * Booking, moving, cancelling and answering, for the three kinds of meeting type: the owner's own and a round-robin
 * booking are decided in one host's schedule; a collective booking across all its hosts' (collective.ts). The route
 * first checks the time against the type with the availability engine (read-api/bookings/slots.ts).
 */
import type { BookingAssignment } from '../../contracts/booking-options';
import { isLive, type Booking, type MeetingType } from '../../contracts/bookings';
import { hostStanding } from '../../read-api/bookings/meetings.queries';
import { BOOKINGS } from '../../projections/bookings.projection';
import { planOf, requireSlot, type FreeHost, type SlotInputs, type TypePlan } from '../../read-api/bookings/slots';
import type { AppContext } from '../../services/app-context';
import { ApiError } from '../../services/errors';
import { deterministicUuid } from '../../services/ids';
import { bookingCancelled, type BookingActor, type NewBooking } from '../schedule/booking.rules';
import { scheduleDecider, scheduleStream, type ScheduleCommand } from '../schedule/schedule.decider';
import { askOf, eventDetailsOf, onSchedule, targetOf, type HostTarget } from './booking-steps';
import { heldAcross, heldHostsOf, syncParts, type BookingResult } from './collective';
import { oneAtATime, rankHosts, roundRobinSince } from './round-robin';

export interface Step {
  userId: string | null;
  commandId: string;
  correlationId: string;
}

export interface Request {
  bookingId: string;
  startsAt: number;
  durationMinutes: number;
  guest: Booking['guest'];
  note: string | null;
  tokenHash: string;
  now: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const isCollective = (hostIds: readonly string[], type: Pick<MeetingType, 'assignment'>) => type.assignment === 'collective' && hostIds.length > 1;

/** The booking a command's result leaves (a command that changed nothing leaves it as the schedule has it). */
async function bookingAfter(app: AppContext, result: BookingResult, spaceId: string, id: string): Promise<Booking> {
  const last = [...result.events].reverse().find((e) => e.type.startsWith('booking.') && e.type !== 'booking.token_issued');
  if (last?.type === 'booking.rescheduled') return (last.data as { data: Booking }).data;
  if (last) return last.data as Booking;
  return (await app.commands.load(scheduleStream(spaceId), scheduleDecider)).state.bookings.get(id)!.booking;
}

export function bookingFlow(app: AppContext, inputs: SlotInputs) {
  const bookAt = (plan: TypePlan, r: Request, target: HostTarget, hostIds: string[], assignment: BookingAssignment | null, step: Step) => {
    const type = plan.type;
    const booking: NewBooking = {
      id: r.bookingId, meetingTypeId: type.id, meetingTypeName: type.name, ownerId: type.ownerId, hostId: target.user.id, hostIds,
      assignment, calendarId: target.calendarId, eventId: deterministicUuid(step.commandId, 'booking-event'), startsAt: iso(r.startsAt),
      endsAt: iso(r.startsAt + r.durationMinutes * 60_000), timeZone: target.user.timeZone, guest: r.guest, note: r.note, location: type.location,
    };
    return onSchedule(app, target.spaceId, {
      type: 'BookSlot', booking, event: eventDetailsOf(type, r.guest, r.note, target.user), ask: askOf(plan, r.startsAt),
      requiresConfirmation: type.requiresConfirmation, tokenHash: r.tokenHash, now: iso(r.now),
    }, step);
  };

  /**
   * Round robin: the free hosts in turn (ranked), the next when a host's schedule refuses (taken meanwhile). The next
   * assignment of the type waits until this one is in the bookings read model, whose counts it ranks by.
   */
  const roundRobin = (plan: TypePlan, r: Request, free: FreeHost[], step: Step) => oneAtATime(plan.type.id, async () => {
    const standings = new Map(await Promise.all(free.map(async (f) =>
      [f.host.id, await hostStanding(app.readModels, f.host.id, plan.type.id, roundRobinSince(r.now))] as const)));
    let refusal: unknown = null;
    for (const { free: f, assignment } of rankHosts(free, standings, plan.hosts.map((h) => h.id))) {
      try {
        const target = await targetOf(app, plan.type, f.host.id);
        const result = await bookAt(plan, r, target, [f.host.id], assignment, { ...step, commandId: deterministicUuid(step.commandId, 'round-robin', f.host.id) });
        if (result.position !== null) await app.watermarks.waitFor([BOOKINGS], result.position, app.config.MIN_POSITION_WAIT_MS);
        return result;
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 409)) throw err;
        refusal = err;
      }
    }
    throw refusal;
  });

  const collective = async (plan: TypePlan, r: Request, step: Step) => {
    const targets = await Promise.all(plan.hosts.map((h) => targetOf(app, plan.type, h.id)));
    const hostIds = targets.map((t) => t.user.id);
    const hold = { bookingId: r.bookingId, meetingTypeId: plan.type.id, startsAt: iso(r.startsAt), endsAt: iso(r.startsAt + r.durationMinutes * 60_000) };
    const assignment: BookingAssignment = { method: 'collective', reason: null, bookingsInWindow: null, lastBookedAt: null };
    const result = await heldAcross(app, step, targets.map((target) => ({ target, ownEventId: null })), hold, askOf(plan, r.startsAt),
      () => bookAt(plan, r, targets[0], hostIds, assignment, step));
    await syncParts(app, await bookingAfter(app, result, targets[0].spaceId, r.bookingId), plan.type);
    return result;
  };

  /** Books the slot for the type's hosts now (`hostIds`): the result holds booking.created. */
  async function book(type: MeetingType, hostIds: string[], r: Request, step: Step): Promise<BookingResult> {
    const plan = await planOf(inputs, type, hostIds);
    const { free } = await requireSlot(inputs, plan, r.startsAt, r.durationMinutes, r.now);
    if (isCollective(hostIds, type)) return collective(plan, r, step);
    if (type.assignment === 'round_robin') return roundRobin(plan, r, free, step);
    const assignment: BookingAssignment | null = type.assignment ? { method: type.assignment, reason: null, bookingsInWindow: null, lastBookedAt: null } : null;
    return bookAt(plan, r, await targetOf(app, type, free[0].host.id), [free[0].host.id], assignment, step);
  }

  /** Runs a command on the booking's own schedule; a collective booking's other hosts follow. */
  async function onBooking(booking: Booking, type: MeetingType, command: ScheduleCommand, step: Step): Promise<{ booking: Booking; position: number | null }> {
    const result = await onSchedule(app, booking.spaceId, command, step);
    const after = await bookingAfter(app, result, booking.spaceId, booking.id);
    if (isCollective(booking.hostIds, type) && result.events.length) await syncParts(app, after, type);
    return { booking: after, position: result.position };
  }

  async function reschedule(booking: Booking, type: MeetingType, actor: BookingActor, startsAt: number, step: Step) {
    if (!isLive(booking.status)) throw bookingCancelled();
    const now = Date.now();
    const plan = await planOf(inputs, type, booking.hostIds);
    const length = (Date.parse(booking.endsAt) - Date.parse(booking.startsAt)) / 60_000;
    const { end } = await requireSlot(inputs, plan, startsAt, length, now, booking.id);
    const command: ScheduleCommand = {
      type: 'RescheduleBooking', bookingId: booking.id, actor, startsAt: iso(startsAt), endsAt: iso(end), ask: askOf(plan, startsAt),
      newEventId: deterministicUuid(step.commandId, 'booking-event'), now: iso(now),
    };
    if (!isCollective(booking.hostIds, type)) return onBooking(booking, type, command, step);
    const hold = { bookingId: booking.id, meetingTypeId: type.id, startsAt: iso(startsAt), endsAt: iso(end) };
    return heldAcross(app, step, await heldHostsOf(app, booking, type), hold, askOf(plan, startsAt), () => onBooking(booking, type, command, step));
  }

  return { book, reschedule, onBooking };
}
