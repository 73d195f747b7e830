/**
 * Example values for the OpenAPI document (docs page, schemathesis' explicit-examples phase). One consistent story:
 * Ada, her personal Space and calendar, a weekly planning meeting. Schemas take their `examples` from here; wrappers
 * such as `{event}` get theirs built from their fields' examples (services/http/openapi-schemas.ts).
 */
export const ids = {
  user: '5f8a7c1e-3b2d-4e6f-9a1b-2c3d4e5f6a7b',
  otherUser: '8d2e4f6a-1b3c-4d5e-8f7a-9b0c1d2e3f4a',
  space: '0b7c9e2a-4d6f-4a8b-9c1d-3e5f7a9b1c2d',
  calendar: '6e1f3a5b-7c9d-4e2f-8a4b-6c8d0e2f4a6b',
  event: '3c5e7a9b-1d3f-4b5d-9e7f-1a3b5c7d9e1f',
  webhook: '9a1b3c5d-7e9f-4a2b-8c4d-6e8f0a2b4c6d',
  delivery: '2d4f6b8c-0e2a-4c6e-9a8b-0c2e4a6c8e0a',
  domainEvent: '7b9d1f3a-5c7e-4f9a-8b1d-3f5a7c9e1b3d',
  apiKey: '4e6a8c0e-2b4d-4f6a-9c8e-0b2d4f6a8c0e',
  oauthApplication: '1f3b5d7f-9a1c-4e3b-8d5f-7a9c1e3b5d7f',
  task: 'c4e6a8b0-2d4f-4a6c-8e0b-2d4f6a8c0e2b',
  booking: 'd5f7b9c1-3e5a-4b7d-9f1c-3e5a7b9d1f3c',
  meetingType: 'e6a8c0d2-4f6b-4c8e-8a2d-4f6b8c0e2a4d',
  routine: 'f7b9d1e3-5a7c-4d9f-9b3e-5a7c9d1f3b5e',
  period: 'a8c0e2f4-6b8d-4eaf-8c4f-6b8d0e2a4c6f',
};

export const at = {
  signedUp: '2026-03-02T08:15:00.000Z',
  created: '2026-03-09T09:30:00.000Z',
  updated: '2026-03-10T14:05:00.000Z',
  starts: '2026-03-16T09:00:00.000Z',
  ends: '2026-03-16T10:00:00.000Z',
};

export const error = {
  error: {
    code: 'invalid_request',
    message: 'Invalid body: body.endsAt must be after startsAt',
    details: { issues: [{ path: 'body.endsAt', message: 'must be after startsAt' }] },
  },
};

export const profile = {
  id: ids.user, email: 'ada@example.com', name: 'Ada Lovelace', username: 'ada', timeZone: 'Europe/London', weekStartsOn: 1,
  enabledModules: { tasks: true, routines: false }, preferences: { theme: 'dark' },
  personalSpaceId: ids.space, defaultCalendarId: ids.calendar, createdAt: at.signedUp, updatedAt: at.updated,
};

export const space = {
  id: ids.space, name: 'Personal', kind: 'personal', ownerId: ids.user, createdAt: at.signedUp, updatedAt: at.signedUp, deletedAt: null,
};

export const calendar = {
  id: ids.calendar, spaceId: ids.space, name: 'Calendar', color: '#3366ff', isDefault: true,
  createdAt: at.signedUp, updatedAt: at.signedUp, deletedAt: null,
};

export const calendarSource = {
  url: 'https://holidays.example.org/de/public-holidays.ics', lastFetchedAt: '2026-03-10T14:00:00.000Z', lastError: null,
};

export const subscribedCalendar = {
  ...calendar, id: '7d3e1f5a-9b2c-4e6d-8f1a-3c5e7a9b1d2f', name: 'Public holidays', color: '#33aa66', isDefault: false, source: calendarSource,
};

export const event = {
  id: ids.event, spaceId: ids.space, calendarId: ids.calendar, title: 'Weekly planning', description: 'Review last week, plan this one',
  location: 'Room Blue', meetingUrl: 'https://meet.example.com/weekly-planning', kind: 'meeting', startsAt: at.starts, endsAt: at.ends,
  timeZone: 'Europe/London', allDay: false, busy: true, recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO', taskId: null, goalId: null, resources: ['room:blue'],
  attendees: [{ email: 'grace@example.com', name: 'Grace Hopper', userId: ids.otherUser, response: 'needs_action' }],
  reminders: [{ minutesBefore: 10, method: 'notification' }], allowOverlap: false,
  exceptions: [{ occurrenceStartsAt: '2026-03-23T09:00:00.000Z', startsAt: '2026-03-23T13:00:00.000Z', endsAt: '2026-03-23T14:00:00.000Z' }],
  icalUid: null, icalRecurrenceId: null, status: 'confirmed', createdBy: ids.user, createdAt: at.created, updatedAt: at.updated, deletedAt: null, version: 2,
};

export const webhook = {
  id: ids.webhook, name: 'CRM sync', url: 'https://crm.example.com/hooks/calendar', events: ['event.created', 'event.updated'],
  enabled: true, createdAt: at.created, updatedAt: at.created,
};

export const deliveryAttempt = { at: at.updated, status: 200, responseTimeMs: 87, error: null };

export const task = {
  id: ids.task, title: 'Send the quarterly report', notes: 'Numbers from finance first', projectId: null, listId: null,
  dueAt: '2026-03-20T17:00:00.000Z', estimateMinutes: 45, priority: 'high', assigneeId: ids.user, status: 'open',
  createdBy: ids.user, createdAt: at.created, updatedAt: at.updated, completedAt: null, deletedAt: null,
};

export const booking = {
  id: ids.booking, meetingTypeId: ids.meetingType, hostId: ids.user, eventId: ids.event, startsAt: at.starts, endsAt: at.ends,
  timeZone: 'Europe/London', guest: { name: 'Grace Hopper', email: 'grace@example.com' }, note: 'About the compiler talk',
  status: 'confirmed', cancelledBy: null, createdAt: at.created, updatedAt: at.created,
};

export const routinePeriod = {
  id: ids.period, name: 'Morning focus', startMinute: 540, endMinute: 660, items: [{ id: ids.task, title: 'Inbox zero' }],
  windowStartMinute: 480, windowEndMinute: 720, priority: 'normal', canMove: true,
};

export const routine = {
  id: ids.routine, name: 'Workday', type: 'work', color: '#22aa66', isActive: true, days: [1, 2, 3, 4, 5], periods: [routinePeriod],
  ownerId: ids.user, createdAt: at.created, updatedAt: at.updated,
};

/** Shaped like the real ones (prefixes, lengths); none of them works anywhere. */
export const secrets = {
  session: 'cs_Yk3pQ8vN2rT6wZ1xC4bM7hJ9dF5gL0sA2eR8uI3oP6k',
  apiKey: 'ck_live_Wm4nB7vC1xZ9qP3rT6yU8iO2aS5dF0gH4jK7lE1pQ9w',
  webhook: 'whsec_c2VjcmV0LWZvci1leGFtcGxlcy1vbmx5LTAx',
  clientId: '3f9a1c7e5b2d4f6a8c0e2b4d6f8a1c3e',
  clientSecret: 'coa_Hn6tR2wQ9vX4zB7mK1pL5sD8fG3jA0cE6yU2iO9rT4w',
  accessToken: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI1ZjhhN2MxZSJ9.c2lnbmF0dXJlLWZvci1leGFtcGxlcw',
  refreshToken: 'cr_Pz8xV3nM6bQ1wT9rY4uK7jH2gF5dS0aL3eC8iO6pN1m',
};

export const syncCursor = 'c1.eyJwIjo0MiwidCI6MTc3MzY1MTUwMH0.Xk3pQ8vN2rT6wZ1xC4bM7h';
