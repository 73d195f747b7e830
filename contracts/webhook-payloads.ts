/**
 * Payload (`data` / `previous`) schemas of the webhook types whose resources have no slice of their own yet
 * (tasks, bookings, routines) and of the integration layer. When a slice lands it should export its resource
 * schema and the catalogue should point at it.
 */
import { z } from 'zod';
import { DateTime, IsoDate, Uuid } from './common';
import * as examples from './examples';

const Priority = z.enum(['low', 'normal', 'high']);

export const TaskPayload = z
  .object({
    id: Uuid,
    title: z.string(),
    notes: z.string().nullable(),
    projectId: Uuid.nullable(),
    listId: Uuid.nullable(),
    dueAt: DateTime.nullable(),
    estimateMinutes: z.number().int().nullable(),
    priority: Priority,
    assigneeId: Uuid.nullable(),
    status: z.string().describe('`open` or `done` (further states may be added)'),
    createdBy: Uuid,
    createdAt: DateTime,
    updatedAt: DateTime,
    completedAt: DateTime.nullable(),
    deletedAt: DateTime.nullable(),
  })
  .meta({ id: 'TaskPayload', description: 'A task as webhooks deliver it.', examples: [examples.task] });

export const TaskDueChangedPrevious = z
  .object({ dueAt: DateTime.nullable().describe('The due date before the change (null: there was none)') })
  .meta({ id: 'TaskDueChangedPrevious', examples: [{ dueAt: '2026-03-18T17:00:00.000Z' }] });

export const BookingPayload = z
  .object({
    id: Uuid,
    meetingTypeId: Uuid,
    hostId: Uuid,
    eventId: Uuid.nullable().describe('The event the booking put in the host\'s calendar'),
    startsAt: DateTime,
    endsAt: DateTime,
    timeZone: z.string(),
    guest: z.object({ name: z.string(), email: z.string() }),
    note: z.string().nullable(),
    status: z.string().describe('`confirmed` or `cancelled`'),
    cancelledBy: z.enum(['guest', 'host']).nullable(),
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .meta({ id: 'BookingPayload', description: 'A booking as webhooks deliver it.', examples: [examples.booking] });

export const BookingRescheduledPrevious = z
  .object({ startsAt: DateTime, endsAt: DateTime })
  .meta({
    id: 'BookingRescheduledPrevious',
    description: 'Where the booking was before it moved.',
    examples: [{ startsAt: '2026-03-13T15:00:00.000Z', endsAt: '2026-03-13T16:00:00.000Z' }],
  });

export const RoutinePeriodPayload = z
  .object({
    id: Uuid,
    name: z.string(),
    startMinute: z.number().int(),
    endMinute: z.number().int(),
    items: z.array(z.object({ id: Uuid, title: z.string() })),
    windowStartMinute: z.number().int().nullable(),
    windowEndMinute: z.number().int().nullable(),
    priority: Priority,
    canMove: z.boolean(),
  })
  .meta({ id: 'RoutinePeriodPayload', examples: [examples.routinePeriod] });

export const RoutinePayload = z
  .object({
    id: Uuid,
    name: z.string(),
    type: z.enum(['personal', 'work']),
    color: z.string().nullable(),
    isActive: z.boolean(),
    days: z.array(z.number().int().min(1).max(7)).describe('ISO weekdays, Monday 1 to Sunday 7'),
    periods: z.array(RoutinePeriodPayload),
    ownerId: Uuid,
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .meta({ id: 'RoutinePayload', description: 'A routine as webhooks deliver it.', examples: [examples.routine] });

export const RoutinePeriodDayPayload = z
  .object({ period: RoutinePeriodPayload, date: IsoDate, routine: RoutinePayload })
  .meta({
    id: 'RoutinePeriodDayPayload',
    description: 'A routine period marked for one day.',
    examples: [{ period: examples.routinePeriod, date: '2026-03-16', routine: examples.routine }],
  });

// ---- the integration layer (inbound calls become domain events, then webhooks) ----

export const MessagingReceivedPayload = z
  .object({
    sender: z.string().min(1).max(200).describe('The sender as the messaging provider names them (e.g. a phone number)'),
    text: z.string().max(10_000),
  })
  .meta({ id: 'MessagingReceivedPayload', examples: [{ sender: '+44 20 7946 0958', text: 'Running 10 minutes late' }] });

export const PaymentsEventPayload = z
  .object({
    amount: z.number().int().describe('In the currency\'s minor unit (cents)'),
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR'),
    customer: z
      .object({ id: z.string().max(200).optional(), name: z.string().max(200).optional(), email: z.string().max(254).optional() })
      .describe('The customer as the payments provider knows them'),
    kind: z.enum(['payment', 'subscription', 'invoice']),
  })
  .meta({
    id: 'PaymentsEventPayload',
    examples: [{ amount: 4900, currency: 'EUR', customer: { id: 'cus_8h2k', name: 'Grace Hopper', email: 'grace@example.com' }, kind: 'payment' }],
  });

const Answer = z.union([z.string().max(10_000), z.number(), z.boolean(), z.array(z.string().max(1_000)).max(100), z.null()]);

export const FormSubmittedPayload = z
  .object({
    formId: z.string().min(1).max(200),
    answers: z.array(z.object({ question: z.string().max(1_000), answer: Answer })).max(500).describe('Every answer, in form order'),
  })
  .meta({
    id: 'FormSubmittedPayload',
    examples: [{ formId: 'intake-2026', answers: [{ question: 'Preferred day?', answer: 'Monday' }, { question: 'Attendees', answer: 3 }] }],
  });

export const integrationPayloads = {
  'messaging.received': MessagingReceivedPayload,
  'payments.event': PaymentsEventPayload,
  'form.submitted': FormSubmittedPayload,
} as const;
export type IntegrationType = keyof typeof integrationPayloads;
export const INTEGRATION_TYPES = Object.keys(integrationPayloads) as IntegrationType[];
