import { z } from 'zod';
import { CalendarRole } from './calendar-members';
import { DateTime, ErrorEnvelope, NonBlankText, Uuid } from './common';
import * as examples from './examples';
import { op } from './operation';

export const Color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a hex colour like #3366ff');

export const Space = z
  .object({
    id: Uuid,
    name: z.string(),
    kind: z.enum(['personal', 'shared']),
    ownerId: Uuid,
    createdAt: DateTime,
    updatedAt: DateTime,
    deletedAt: DateTime.nullable(),
  })
  .meta({ id: 'Space', examples: [examples.space] });
export type Space = z.infer<typeof Space>;

/** Where a subscribed calendar's events come from (docs/subscriptions.md); absent on the calendars made here. */
export const CalendarSource = z
  .object({
    url: z.string().describe('The iCalendar address or CalDAV collection subscribed to (never with credentials)'),
    lastFetchedAt: DateTime.nullable().describe('The last fetch that succeeded (null: none yet; null in events and /sync, which record the subscription only)'),
    lastError: z.string().nullable().describe('Why the last fetch failed (null: it did not)'),
  })
  .meta({ id: 'CalendarSource', examples: [examples.calendarSource] });
export type CalendarSource = z.infer<typeof CalendarSource>;

export const Calendar = z
  .object({
    id: Uuid,
    spaceId: Uuid,
    name: z.string(),
    color: z.string(),
    isDefault: z.boolean(),
    source: CalendarSource.optional(),
    createdAt: DateTime,
    updatedAt: DateTime,
    deletedAt: DateTime.nullable(),
  })
  .meta({ id: 'Calendar', examples: [examples.calendar] });
export type Calendar = z.infer<typeof Calendar>;

/** A calendar as listed to someone who can see it: with their role (docs/sharing.md). */
export const ListedCalendar = Calendar.extend({
  role: CalendarRole,
  readOnly: z.boolean().describe('A subscription (its events come from `source`): its events cannot be written over the API'),
}).meta({
  id: 'ListedCalendar',
  examples: [{ ...examples.calendar, role: 'owner', readOnly: false }, { ...examples.subscribedCalendar, role: 'owner', readOnly: true }],
});
export type ListedCalendar = z.infer<typeof ListedCalendar>;

export const CreateSpaceBody = z.object({ name: NonBlankText(200) }).meta({ id: 'CreateSpaceBody', examples: [{ name: 'Family' }] });
export const CreateCalendarBody = z
  .object({ name: NonBlankText(200), color: Color.optional(), spaceId: Uuid.optional() })
  .meta({ id: 'CreateCalendarBody', description: 'spaceId defaults to the personal Space', examples: [{ name: 'Work', color: '#ff8800' }] });

const notFound = { description: 'Space not found', schema: ErrorEnvelope };

export const spaceOperations = [
  op({
    method: 'get', path: '/spaces', tag: 'Spaces', summary: 'Spaces the caller belongs to',
    responses: { 200: { description: 'Spaces', schema: z.object({ spaces: z.array(Space) }).meta({ id: 'SpaceList' }) } },
  }),
  op({
    method: 'post', path: '/spaces', tag: 'Spaces', summary: 'Create a Space (it gets a default calendar)',
    body: CreateSpaceBody,
    responses: {
      201: { description: 'Created', schema: z.object({ space: Space, calendar: Calendar }).meta({ id: 'SpaceCreated' }) },
    },
  }),
  op({
    method: 'get', path: '/calendars', tag: 'Calendars', summary: 'Calendars the caller can see, with their role',
    description: 'The calendars of the caller\'s Spaces and organizations, and those shared with them, oldest first, each '
      + 'with the caller\'s `role`: `owner`, `writer` (shared so, or of an organization they belong to), `reader` or '
      + '`freeBusyReader` (its busy time only, through POST /free-busy). A calendar no longer shared is not listed. '
      + 'A subscription (POST /calendars/subscriptions) is `readOnly: true` with its `source` and the state of its last fetch.',
    responses: {
      200: { description: 'Calendars', schema: z.object({ calendars: z.array(ListedCalendar) }).meta({ id: 'CalendarList' }) },
    },
  }),
  op({
    method: 'post', path: '/calendars', tag: 'Calendars', summary: 'Create a calendar', body: CreateCalendarBody,
    responses: {
      201: { description: 'Created', schema: z.object({ calendar: Calendar }).meta({ id: 'CalendarResponse' }) },
      404: notFound,
    },
  }),
];
