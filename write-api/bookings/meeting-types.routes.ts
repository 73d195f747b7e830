import { lengthsOf } from '../../contracts/booking-options';
import { meetingTypeOperations, type CreateMeetingTypeBody, type UpdateMeetingTypeBody } from '../../contracts/bookings';
import { findOperation } from '../../contracts/operation';
import { isBooked } from '../../read-api/bookings/bookings.queries';
import { hostsOutsideOrganizations } from '../../read-api/bookings/team-hosts';
import { spaceIdsOf } from '../../read-api/spaces/spaces.queries';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { AppContext } from '../../services/app-context';
import { decided } from '../../services/commands/command-handler';
import { ApiError, conflict, notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { DEFAULT_WORKING_HOURS } from '../../services/availability/weekly-hours';
import { calendarReadOnly } from '../calendars/subscription.rules';
import { lookupCaughtUp } from '../schedule/locate';
import { ifMatch, ownStream, withEtag } from '../shared/own-stream';
import { meetingTypesDecider, meetingTypesStream, type MeetingTypeChanges } from './meeting-types.decider';

/** The body's fields that were sent (left out means "keep"). */
const sent = <T extends object>(body: T): Partial<T> =>
  Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as Partial<T>;

const limitsOf = (limits: CreateMeetingTypeBody['limits']) => ({ perDay: limits?.perDay ?? null, perWeek: limits?.perWeek ?? null });
const once = <T>(items: readonly T[] | undefined) => (items ? [...new Set(items)] : undefined);

export function meetingTypesWriteRoutes(app: AppContext) {
  const run = ownStream(app, meetingTypesDecider, meetingTypesStream);

  /** Bookings may only go to a live calendar of the owner's Spaces, never a subscription (its next fetch would cancel them). */
  const checkCalendar = async (userId: string, calendarId: string | null | undefined) => {
    if (!calendarId) return;
    const calendar = await lookupCaughtUp(app, async () => (await app.readModels.docs(SCHEDULE))('calendars').get(calendarId));
    if (!calendar || calendar.deletedAt || !(await spaceIdsOf(app.readModels, userId)).includes(calendar.spaceId as string)) throw notFound('Calendar');
    if (calendar.source) throw calendarReadOnly();
  };

  /** Hosts must be members of one of the owner's organizations; a membership just granted may not be read yet: a miss waits once. */
  const checkHosts = async (ownerId: string, hosts: string[] | undefined) => {
    if (!hosts?.length) return;
    const outside = () => hostsOutsideOrganizations(app.readModels, ownerId, hosts);
    if (await lookupCaughtUp(app, async () => ((await outside()).length ? null : true))) return;
    throw new ApiError(404, 'not_found', 'Hosts must be members of one organization you belong to', { hosts: await outside() });
  };

  return [
    route<CreateMeetingTypeBody>(findOperation(meetingTypeOperations, 'post', '/meeting-types'), async (input) => {
      const b = input.body;
      const ownerId = input.principal!.userId;
      const hosts = once(b.hosts) ?? [];
      await Promise.all([checkCalendar(ownerId, b.calendarId), checkHosts(ownerId, hosts)]);
      const durations = lengthsOf(b.durationMinutes, b.durations);
      const result = await run(input, {
        type: 'Create', id: deterministicUuid(input.commandId, 'meeting-type'), now: new Date().toISOString(),
        fields: {
          ownerId, name: b.name, slug: b.slug, durationMinutes: durations[0], durations, description: b.description ?? null,
          location: b.location ?? null, enabled: b.enabled ?? true, bufferBeforeMinutes: b.bufferBeforeMinutes ?? 0,
          bufferAfterMinutes: b.bufferAfterMinutes ?? 0, minimumNoticeMinutes: b.minimumNoticeMinutes ?? 0,
          hours: b.hours ?? [...DEFAULT_WORKING_HOURS], calendarId: b.calendarId ?? null, dateOverrides: b.dateOverrides ?? [],
          limits: limitsOf(b.limits), seats: b.seats ?? 1, requiresConfirmation: b.requiresConfirmation ?? false,
          hosts, assignment: hosts.length ? (b.assignment ?? 'collective') : null,
        },
      });
      return withEtag(201, 'meetingType', decided(result.events, 'meeting_type.created'), result.position);
    }),

    route<UpdateMeetingTypeBody>(findOperation(meetingTypeOperations, 'patch', '/meeting-types'), async (input) => {
      const { id, limits, hosts, ...changes } = input.body;
      await Promise.all([checkCalendar(input.principal!.userId, changes.calendarId), checkHosts(input.principal!.userId, once(hosts))]);
      const fields = { ...sent(changes), ...(limits ? { limits: limitsOf(limits) } : {}), ...(hosts ? { hosts: once(hosts) } : {}) };
      const result = await run(input, {
        type: 'Update', id, changes: fields as MeetingTypeChanges, expectedVersions: ifMatch(input), now: new Date().toISOString(),
      });
      return withEtag(200, 'meetingType', decided(result.events, 'meeting_type.updated'), result.position);
    }),

    route<unknown, { id: string }>(findOperation(meetingTypeOperations, 'delete', '/meeting-types'), async (input) => {
      const id = input.query.id;
      const owned = (await app.commands.load(meetingTypesStream(input.principal!.userId), meetingTypesDecider)).state.items.has(id);
      if (owned && (await lookupCaughtUp(app, async () => (await isBooked(app.readModels, id)) || null))) {
        throw conflict('meeting_type_in_use', 'People have booked this meeting type: switch it off (enabled: false) instead');
      }
      const result = await run(input, { type: 'Delete', id, expectedVersions: ifMatch(input), now: new Date().toISOString() });
      return { status: 204, position: result.position };
    }),
  ];
}
