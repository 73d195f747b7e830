import { z } from 'zod';
import { Booking, MeetingType } from './bookings';
import { CalendarMemberRecord } from './calendar-members';
import { DateTime, ErrorEnvelope } from './common';
import { Event } from './events';
import { Goal } from './goals';
import * as examples from './examples';
import { op } from './operation';
import { RoutineView } from './routines';
import { Calendar, Space } from './spaces';
import { Project, Task, TaskList } from './tasks';

export const SyncQuery = z.object({
  since: z.string().min(1).max(500).describe('A cursor from an earlier answer, or an ISO date-time'),
  limit: z.coerce.number().int().min(1).max(1000).optional().describe('Page size, default 500'),
});

const CalendarMembership = CalendarMemberRecord.extend({
  id: z.string().describe('`<calendarId>:<userId>`: the id `deleted` names once the row is erased'),
  deletedAt: DateTime.nullable(),
}).meta({ id: 'CalendarMembership' });

const SyncChanges = z.object({
  events: z.array(Event), calendars: z.array(Calendar), spaces: z.array(Space), goals: z.array(Goal), routines: z.array(RoutineView),
  tasks: z.array(Task), projects: z.array(Project), lists: z.array(TaskList),
  meetingTypes: z.array(MeetingType), bookings: z.array(Booking).describe('Bookings the caller hosts or owns the type of'),
  calendarMemberships: z.array(CalendarMembership)
    .describe('The caller\'s roles on calendars shared with them; one taken away carries `deletedAt`: drop that calendar and its events'),
});

/** Every syncable type present, as in every answer: one changed event, nothing else. */
const changesExample = { ...Object.fromEntries(Object.keys(SyncChanges.shape).map((type) => [type, []])), events: [examples.event] };

export const SyncResponse = z
  .object({
    changes: SyncChanges,
    deleted: z.array(z.object({ type: z.string(), id: z.string() })),
    cursor: z.string(),
    hasMore: z.boolean(),
    serverTime: DateTime,
  })
  .meta({
    id: 'SyncResponse',
    examples: [{
      changes: changesExample, deleted: [], cursor: examples.syncCursor, hasMore: false,
      serverTime: examples.at.updated,
    }],
  });

export const syncOperations = [
  op({ method: 'get', path: '/sync', tag: 'Sync', summary: 'Everything that changed since a cursor or time',
    description: 'Rows come in log order; removed items carry `deletedAt`. Page with `limit` and `hasMore`.',
    query: SyncQuery,
    responses: { 200: { description: 'Changes', schema: SyncResponse },
      410: { description: '`cursor_expired`: start over from /me/bootstrap', schema: ErrorEnvelope } } }),
];
