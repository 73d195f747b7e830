/**
 * Every domain event the service appends, type -> data schema. `type` uses the webhook name where one exists.
 * The event store envelope (id, metadata, position) is described by services/eventstore/event-store.port.ts.
 */
import { z } from 'zod';
import { Uuid } from './common';
import { Event } from './events';
import { Profile } from './profile';
import { Calendar, Space } from './spaces';
import { ListReranked, Project, Task, TaskDueChanged, TaskList } from './tasks';
import { FormSubmittedPayload, MessagingReceivedPayload, PaymentsEventPayload } from './webhook-payloads';

/** The user as events carry it: the same shape as the profile the API answers with. */
export const UserRecord = Profile;
export type UserRecord = z.infer<typeof UserRecord>;

export const domainEvents = {
  'email.claimed': z.object({ email: z.string(), userId: Uuid }),
  'username.claimed': z.object({ username: z.string(), userId: Uuid }),
  'username.released': z.object({ username: z.string(), userId: Uuid }),
  'user.registered': z.object({ user: UserRecord, passwordHash: z.string() }),
  'user.profile_updated': z.object({ user: UserRecord }),
  'space.created': z.object({ space: Space }),
  'calendar.created': z.object({ calendar: Calendar }),
  'event.created': Event,
  'event.updated': Event,
  'event.cancelled': Event,
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
  // The integration layer (POST /integrations/inbound): `userId` is whose webhooks receive it.
  'messaging.received': z.object({ userId: Uuid, payload: MessagingReceivedPayload }),
  'payments.event': z.object({ userId: Uuid, payload: PaymentsEventPayload }),
  'form.submitted': z.object({ userId: Uuid, payload: FormSubmittedPayload }),
} as const;

export type DomainEventType = keyof typeof domainEvents;
export type DomainEventData<T extends DomainEventType> = z.infer<(typeof domainEvents)[T]>;
export type DomainEvent = { [T in DomainEventType]: { type: T; data: DomainEventData<T> } }[DomainEventType];

/** Bump per type when its data changes shape, and upcast older versions where events are read. */
export const SCHEMA_VERSION = 1;
