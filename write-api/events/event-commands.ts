/** What the event write routes share: finding an event's Space, the caller's profile, attendees, running a command. */
import type { z } from 'zod';
import type { AttendeeInput, Event, EventFields, EventOccurrence, UpdateEventBody } from '../../contracts/events';
import { SCHEDULE } from '../../projections/schedule.projection';
import { locateEvent } from '../../read-api/events/events.queries';
import { ownGoal } from '../../read-api/goals/goals.queries';
import { userIdsByEmail } from '../../read-api/profile/users.queries';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import { etagOf, expectedVersions } from '../../services/http/etag';
import type { Input } from '../../services/http/route';
import { userDecider, userStream } from '../accounts/user.decider';
import { isTestAccountEmail } from '../api-keys/test-environment';
import { lookupCaughtUp } from '../schedule/locate';
import { scheduleDecider, scheduleStream, type ScheduleCommand } from '../schedule/schedule.decider';

type Attendees = z.infer<typeof AttendeeInput>[];
type AnyInput = Input<unknown, unknown, unknown>;
const iso = (at: string) => new Date(at).toISOString();

export function eventCommands(app: AppContext) {
  const profile = async (userId: string) => (await app.commands.load(userStream(userId), userDecider)).state.user!;

  const resolveAttendees = async (input: Attendees, environment: 'live' | 'test'): Promise<Event['attendees']> => {
    const ids = await userIdsByEmail(app.readModels, input.map((a) => a.email));
    // Only users of the caller's environment are linked: test data never reaches a live inbox, nor live data a test one.
    const userId = (email: string) => (isTestAccountEmail(email) === (environment === 'test') ? ids.get(email.toLowerCase()) ?? null : null);
    return input.map((a) => ({ email: a.email, name: a.name ?? null, userId: userId(a.email), response: 'needs_action' }));
  };

  return {
    profile,
    resolveAttendees,

    spaceOfCalendar: async (calendarId: string) =>
      lookupCaughtUp(app, async () => {
        const doc = await (await app.readModels.docs(SCHEDULE))('calendars').get(calendarId);
        return (doc?.spaceId as string | undefined) ?? null;
      }),

    eventLocation: async (id: string) => {
      const event = await lookupCaughtUp(app, () => locateEvent(app.readModels, id));
      if (!event) throw notFound('Event');
      return event;
    },

    /** A block may count for one of the caller's goals only. */
    checkGoal: async (userId: string, goalId: string | null | undefined) => {
      if (goalId && !(await lookupCaughtUp(app, () => ownGoal(app.readModels, userId, goalId)))) throw notFound('Goal');
    },

    /** A PATCH body as changes: instants in UTC, resources once each, attendees resolved keeping their earlier answers. */
    changesOf: async (input: AnyInput, body: UpdateEventBody, previous: Event['attendees']): Promise<Partial<EventFields>> => {
      const { attendees, startsAt, endsAt, resources, ...rest } = body;
      const changes: Partial<EventFields> = { ...rest };
      if (startsAt) changes.startsAt = iso(startsAt);
      if (endsAt) changes.endsAt = iso(endsAt);
      if (resources) changes.resources = [...new Set(resources)];
      if (attendees) {
        const answers = new Map(previous.map((a) => [a.email.toLowerCase(), a.response]));
        const resolved = await resolveAttendees(attendees, input.principal!.environment);
        changes.attendees = resolved.map((a) => ({ ...a, response: answers.get(a.email.toLowerCase()) ?? a.response }));
      }
      return changes;
    },

    run: async (input: AnyInput, spaceId: string, command: ScheduleCommand) =>
      app.commands.handle(scheduleStream(spaceId), scheduleDecider, command, {
        userId: input.principal!.userId, commandId: input.commandId, correlationId: input.requestId, spaceId,
      }),

    ifMatch: (input: AnyInput) => expectedVersions(input.header('If-Match')),

    answer: (status: number, event: Event | EventOccurrence, position: number | null) => ({
      status, body: { event }, headers: { ETag: etagOf(event.version) }, position,
    }),
  };
}
