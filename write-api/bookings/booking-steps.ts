/**
 * What the booking routes hand the hosts' schedules: where a host's bookings go (their Space and calendar), what a
 * slot asks of a schedule (buffers, limits, seats) and the event a booking makes there.
 */
import type { MeetingType } from '../../contracts/bookings';
import type { UserRecord } from '../../contracts/domain-events';
import { defaultRemindersOf } from '../../contracts/reminders';
import { limitSpans } from '../../read-api/bookings/meeting-hours';
import type { TypePlan } from '../../read-api/bookings/slots';
import { userById } from '../../read-api/profile/users.queries';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { AppContext } from '../../services/app-context';
import type { CommandContext } from '../../services/commands/command-handler';
import { notFound } from '../../services/errors';
import { lookupCaughtUp } from '../schedule/locate';
import type { EventDetails } from '../schedule/booking.rules';
import type { SlotAsk } from '../schedule/booking-slot';
import { scheduleDecider, scheduleStream, type ScheduleCommand } from '../schedule/schedule.decider';

export interface HostTarget {
  user: UserRecord;
  spaceId: string;
  calendarId: string;
}

/** Where a host's bookings of the type go: the type's calendar for its owner (default: theirs), a team host's default calendar. */
export async function targetOf(app: AppContext, type: Pick<MeetingType, 'ownerId' | 'calendarId'>, hostId: string): Promise<HostTarget> {
  const user = await userById(app.readModels, hostId);
  if (!user) throw notFound('Meeting type');
  const calendarId = (hostId === type.ownerId ? type.calendarId : null) ?? user.defaultCalendarId;
  const calendar = await lookupCaughtUp(app, async () => (await app.readModels.docs(SCHEDULE))('calendars').get(calendarId));
  if (!calendar) throw notFound('Calendar');
  return { user, spaceId: calendar.spaceId as string, calendarId };
}

/** What a booking starting at `start` asks of a host's schedule. */
export function askOf(plan: TypePlan, start: number): SlotAsk {
  const t = plan.type;
  return {
    meetingTypeId: t.id,
    buffers: { beforeMinutes: t.bufferBeforeMinutes, afterMinutes: t.bufferAfterMinutes },
    quotas: limitSpans(start, t.limits, plan.clock.timeZone, plan.clock.weekStartsOn).map((s) => ({
      reason: s.reason, from: new Date(s.start).toISOString(), to: new Date(s.end).toISOString(), max: s.max,
    })),
    seats: t.seats,
  };
}

/** The calendar event of a booking: a shared slot's (seats) is named for the type, with no guest's note in it. */
export function eventDetailsOf(type: Pick<MeetingType, 'name' | 'seats'>, guest: { name: string }, note: string | null, host: UserRecord): EventDetails {
  const shared = type.seats > 1;
  return {
    title: shared ? type.name : `${type.name} with ${guest.name}`,
    description: shared ? null : note,
    reminders: defaultRemindersOf(host.preferences),
  };
}

/** Runs a command on a host's schedule. */
export const onSchedule = (app: AppContext, spaceId: string, command: ScheduleCommand, ctx: Omit<CommandContext, 'spaceId'>) =>
  app.commands.handle(scheduleStream(spaceId), scheduleDecider, command, { ...ctx, spaceId });
