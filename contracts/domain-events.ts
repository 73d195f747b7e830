/**
 * Every domain event the service appends, type -> data schema. `type` uses the webhook name where one exists.
 * The event store envelope (id, metadata, position) is described by services/eventstore/event-store.port.ts.
 */
import { z } from 'zod';
import {
  Booking, BOOKING_EVENT_VERSIONS, BookingHeld, BookingHoldReleased, BookingPart, BookingRescheduled, BookingTokenIssued, MeetingType,
} from './bookings';
import { PreferencesRecord, SuggestionRecord } from './assistant';
import { AutomationRecord } from './automations';
import { BugReport } from './bug-reports';
import { CalendarMemberRecord } from './calendar-members';
import { EventType } from './event-types';
import { IsoDate, Uuid } from './common';
import { Event, EventOccurrence } from './events';
import { FocusSessionRecord } from './focus';
import { FeedIssued, FeedRevoked } from './ical';
import { Goal } from './goals';
import { Profile } from './profile';
import { Routine, RoutinePeriodDay } from './routines';
import { Calendar, Space } from './spaces';
import { DeviceRecord, PushTokenClaim } from './devices';
import { NotificationRequest } from './notifications';
import { SpaceMemberRecord } from './organizations';
import { ReminderDue } from './reminders';
import { ListReranked, Project, Task, TaskDueChanged, TaskList } from './tasks';
import { FormSubmittedPayload, MessagingReceivedPayload, PaymentsEventPayload } from './webhook-payloads';

/** The user as events carry it: the same shape as the profile the API answers with. */
export const UserRecord = Profile;
export type UserRecord = z.infer<typeof UserRecord>;

/** One occurrence of a series changed or cancelled: the occurrence as it now is, and the series after the change. */
const OccurrenceChange = z.object({ seriesId: Uuid, occurrenceStartsAt: z.string(), occurrence: EventOccurrence, series: Event });
export type OccurrenceChange = z.infer<typeof OccurrenceChange>;

export const domainEvents = {
  'email.claimed': z.object({ email: z.string(), userId: Uuid }),
  'username.claimed': z.object({ username: z.string(), userId: Uuid }),
  'username.released': z.object({ username: z.string(), userId: Uuid }),
  'user.registered': z.object({ user: UserRecord, passwordHash: z.string() }),
  'user.profile_updated': z.object({ user: UserRecord }),
  'space.created': z.object({ space: Space }),
  'calendar.created': z.object({ calendar: Calendar }),
  // A subscribed calendar deleted (unsubscribed: docs/subscriptions.md), after its events' cancellations.
  'calendar.deleted': z.object({ calendar: Calendar }),
  // Sharing (docs/sharing.md): a role given or changed (the member as they now are), a role taken away.
  'calendar.member.added': CalendarMemberRecord,
  'calendar.member.removed': CalendarMemberRecord,
  // A member or admin of an organization (a shared Space), added or given another role.
  'space.member.added': SpaceMemberRecord,
  // A calendar's feed address (POST /calendars/{id}/feed): its token only hashed; not delivered.
  'calendar.feed_issued': FeedIssued,
  'calendar.feed_revoked': FeedRevoked,
  'event.created': Event,
  'event.updated': Event,
  'event.cancelled': Event,
  'event.occurrence.changed': OccurrenceChange,
  'event.occurrence.cancelled': OccurrenceChange,
  // A reminder fell due (services/reminders/): delivered to the owner, or recorded only (its occurrence had begun).
  'reminder.fired': ReminderDue,
  'reminder.missed': ReminderDue,
  'focus.started': FocusSessionRecord,
  'focus.paused': FocusSessionRecord,
  'focus.resumed': FocusSessionRecord,
  'focus.stopped': FocusSessionRecord,
  'goal.created': Goal,
  'goal.updated': Goal,
  'goal.deleted': Goal,
  'event_type.created': EventType,
  'event_type.updated': EventType,
  'event_type.deleted': EventType,
  'bug_report.submitted': BugReport,
  'routine.created': Routine,
  'routine.updated': Routine,
  'routine.deleted': Routine,
  'routine.period.completed': RoutinePeriodDay,
  'routine.period.skipped': RoutinePeriodDay,
  // A period's day status cleared, its times for a day moved (null: back to its own), an item ticked: no webhook types.
  'routine.period.cleared': z.object({ routineId: Uuid, periodId: Uuid, date: IsoDate }),
  'routine.period.moved': z.object({
    routineId: Uuid, periodId: Uuid, date: IsoDate, startMinute: z.number().int().nullable(), endMinute: z.number().int().nullable(),
  }),
  'routine.item.marked': z.object({ routineId: Uuid, periodId: Uuid, itemId: Uuid, date: IsoDate, done: z.boolean() }),
  'task.created': Task,
  'task.updated': Task,
  'task.completed': Task,
  'task.assigned': Task,
  'task.due_changed': TaskDueChanged,
  'task.deleted': Task,
  'list.reranked': ListReranked,
  'project.created': Project,
  'project.updated': Project,
  'project.deleted': Project,
  'list.created': TaskList,
  'list.deleted': TaskList,
  'meeting_type.created': MeetingType,
  'meeting_type.updated': MeetingType,
  'meeting_type.deleted': MeetingType,
  'booking.created': Booking,
  'booking.rescheduled': BookingRescheduled,
  'booking.cancelled': Booking,
  // The guest's manage token, hashed: appended with booking.created, never delivered.
  'booking.token_issued': BookingTokenIssued,
  // The host answered a booking of a type that requires confirmation (declined: delivered as booking.cancelled).
  'booking.confirmed': Booking,
  'booking.declined': Booking,
  // A collective booking across its hosts' schedules (docs/bookings.md): holds, then each other host's part. No webhooks.
  'booking.held': BookingHeld,
  'booking.hold_released': BookingHoldReleased,
  'booking.part_changed': z.object({ part: BookingPart }),
  // The integration layer (POST /integrations/inbound): `userId` is whose webhooks receive it.
  'messaging.received': z.object({ userId: Uuid, payload: MessagingReceivedPayload }),
  'payments.event': z.object({ userId: Uuid, payload: PaymentsEventPayload }),
  'form.submitted': z.object({ userId: Uuid, payload: FormSubmittedPayload }),
  'notification.requested': NotificationRequest,
  'notifications.marked_read': z.object({ userId: Uuid }),
  'device.registered': z.object({ device: DeviceRecord }),
  'device.updated': z.object({ device: DeviceRecord }),
  'device.removed': z.object({ device: DeviceRecord }),
  'push_token.claimed': PushTokenClaim,
  'push_token.released': PushTokenClaim,
  'assistant.preferences_updated': PreferencesRecord,
  'assistant.suggestion.proposed': SuggestionRecord,
  'assistant.suggestion.confirming': SuggestionRecord,
  'assistant.suggestion.released': SuggestionRecord,
  'assistant.suggestion.confirmed': SuggestionRecord,
  'assistant.suggestion.cancelled': SuggestionRecord,
  'automation.created': AutomationRecord,
  'automation.updated': AutomationRecord,
  'automation.deleted': AutomationRecord,
  // An operator erased the user (crypto-shredding, services/history/erasure.ts): never sealed, names only the id.
  'user.erased': z.object({ userId: Uuid, erasedAt: z.string() }),
} as const;

export type DomainEventType = keyof typeof domainEvents;
export type DomainEventData<T extends DomainEventType> = z.infer<(typeof domainEvents)[T]>;
export type DomainEvent = { [T in DomainEventType]: { type: T; data: DomainEventData<T> } }[DomainEventType];

/**
 * The current schema version of each type's data (1 when not listed). When a type's data changes shape, bump it here
 * and add an upcaster from the previous version to services/eventstore/upcasters.ts: stored events are never
 * rewritten, they are upcast where the store is read.
 */
export const EVENT_VERSIONS: Partial<Record<DomainEventType, number>> = {
  // v2: `taskId` and `goalId` (planner links) are always present, null when unlinked. v3: `reminders`, `exceptions`.
  // v4: `icalUid`, `icalRecurrenceId` (the iCalendar identity of imported events), null before.
  'event.created': 4,
  'event.updated': 4,
  'event.cancelled': 4,
  // v2: the series and the occurrence carry `icalUid`, `icalRecurrenceId`.
  'event.occurrence.changed': 2,
  'event.occurrence.cancelled': 2,
  // v2: the booking options and team hosts (meeting types); owner, hosts and assignment (bookings).
  ...BOOKING_EVENT_VERSIONS,
};

export const schemaVersionOf = (type: string): number => EVENT_VERSIONS[type as DomainEventType] ?? 1;
