/** Notifications: produced by the domain for one user each, listed newest first, marked read all at once. */
import { z } from 'zod';
import { DateTime, NonBlankText, Uuid } from './common';
import { op } from './operation';
import { NextPageToken, PageQuery } from './paging';

export const NOTIFICATION_KINDS = [
  'booking_created', 'booking_cancelled', 'booking_rescheduled', 'task_assigned', 'invitation', 'message', 'reminder',
] as const;

export const NotificationSource = z
  .object({
    type: z.string().describe('What the notification is about: `booking`, `task`, `event`, `automation`, ...'),
    id: z.string().nullable().describe('The id of that resource, when there is one'),
  })
  .meta({ id: 'NotificationSource', examples: [{ type: 'booking', id: '7c9e6679-7425-40de-944b-e07fc1f90ae7' }] });

export const Notification = z
  .object({
    id: Uuid,
    kind: z.enum(NOTIFICATION_KINDS).describe('`message` is a notification an automation (or another part of the service) asked for'),
    title: z.string(),
    body: z.string().nullable(),
    source: NotificationSource,
    eventId: Uuid.nullable().describe('The calendar event it is about (reminders and invitations), else null'),
    occurrenceStartsAt: DateTime.nullable().describe(
      'Reminders: which occurrence, by its original start as `GET /events` reports it (a single event: its start); else null',
    ),
    read: z.boolean(),
    createdAt: DateTime,
  })
  .meta({
    id: 'Notification',
    examples: [{
      id: '0d6f4f0e-5b1c-5e7a-9a43-6f1d2c3b4a51',
      kind: 'reminder',
      title: 'Reminder: Weekly planning',
      body: 'Starts 2031-05-12 at 14:00 (Europe/Lisbon), in 10 minutes',
      source: { type: 'event', id: '7c9e6679-7425-40de-944b-e07fc1f90ae7' },
      eventId: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
      occurrenceStartsAt: '2031-05-12T13:00:00.000Z',
      read: false,
      createdAt: '2031-05-12T12:50:00.120Z',
    }],
  });
export type Notification = z.infer<typeof Notification>;

export const ListNotificationsQuery = PageQuery.extend({
  unread: z.enum(['1', '0', 'true', 'false']).optional().describe('`1` lists unread notifications only'),
});
export type ListNotificationsQuery = z.infer<typeof ListNotificationsQuery>;

export const NotificationList = z
  .object({
    notifications: z.array(Notification).describe('Newest first'),
    unreadCount: z.number().int().describe('Unread notifications in all (not only this page), for a badge'),
    nextPageToken: NextPageToken,
  })
  .meta({
    id: 'NotificationList',
    examples: [{
      notifications: [{
        id: '0d6f4f0e-5b1c-5e7a-9a43-6f1d2c3b4a51', kind: 'task_assigned', title: 'Assigned to you: Send the Q3 report',
        body: 'Due 2031-05-14 17:00 (UTC)', source: { type: 'task', id: '3f2b8c1e-9d4a-4f6b-8e2c-1a5d7b9c0e34' },
        eventId: null, occurrenceStartsAt: null, read: false, createdAt: '2031-05-02T09:14:03.120Z',
      }],
      unreadCount: 1,
      nextPageToken: null,
    }],
  });

export const MarkedRead = z
  .object({ markedRead: z.number().int().describe('How many notifications were unread and are now read') })
  .meta({ id: 'NotificationsMarkedRead', examples: [{ markedRead: 3 }] });

/** What another part of the service asks for (automations' `send_notification`): the data of `notification.requested`. */
export const NotificationRequest = z
  .object({
    userId: Uuid.describe('Who gets it'),
    title: NonBlankText(200),
    body: z.string().max(2_000).nullable(),
    source: NotificationSource,
  })
  .meta({
    id: 'NotificationRequest',
    examples: [{
      userId: '5b0f6a2e-1c3d-4e5f-8a9b-0c1d2e3f4a5b', title: 'Invoice paid', body: 'Acme paid invoice 2031-014',
      source: { type: 'automation', id: '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d' },
    }],
  });
export type NotificationRequest = z.infer<typeof NotificationRequest>;

export const notificationOperations = [
  op({
    method: 'get', path: '/notifications', tag: 'Notifications', summary: 'The caller\'s notifications, newest first',
    description: 'Produced by the domain: bookings made, cancelled or moved (to the host), tasks assigned (to the '
      + 'assignee), invitations (to each newly invited user), automations\' `send_notification`, and reminders (to the '
      + 'event\'s owner, who created it, in a shared calendar the writer who did: one per event, occurrence and '
      + 'reminder, `kind: reminder` with `eventId` and `occurrenceStartsAt`, whatever the reminder\'s method; `push` '
      + 'also pushes it to the owner\'s devices, `email` also mails it). A reminder is due `minutesBefore` before the '
      + 'occurrence\'s start. One that fell due while the '
      + 'service was down comes when it is back, unless its occurrence has begun (a reminder less than a minute late '
      + 'still comes: a 0-minute one is due as the event begins); one whose time had already passed when it was set '
      + '(an event created or moved to start sooner than its reminder) does not come. Cancelled events and occurrences '
      + 'remind no one; a moved one is reminded before its new time, even when it was reminded before its old one. '
      + 'Identical reminders of one event come once.',
    query: ListNotificationsQuery,
    responses: { 200: { description: 'One page of notifications', schema: NotificationList } },
  }),
  op({
    method: 'patch', path: '/notifications', tag: 'Notifications', summary: 'Mark every notification read',
    description: 'Takes no body. Every notification that exists when the call is made becomes read; later ones arrive unread.',
    responses: { 200: { description: 'Marked read', schema: MarkedRead } },
  }),
];
