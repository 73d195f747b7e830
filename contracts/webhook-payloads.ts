/**
 * Payload (`data` / `previous`) schemas of the webhook types whose resources have no slice of their own yet
 * (bookings) and of the integration layer, and the `previous` of task.due_changed. When a slice lands it
 * should export its resource schema and the catalogue should point at it.
 */
import { z } from 'zod';
import { DateTime, Uuid } from './common';

export const TaskDueChangedPrevious = z
  .object({ dueAt: DateTime.nullable().describe('The due date before the change (null: there was none)') })
  .meta({ id: 'TaskDueChangedPrevious' });

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
  .meta({ id: 'BookingPayload', description: 'A booking as webhooks deliver it.' });

export const BookingRescheduledPrevious = z
  .object({ startsAt: DateTime, endsAt: DateTime })
  .meta({ id: 'BookingRescheduledPrevious', description: 'Where the booking was before it moved.' });

// ---- the integration layer (inbound calls become domain events, then webhooks) ----

export const MessagingReceivedPayload = z
  .object({
    sender: z.string().min(1).max(200).describe('The sender as the messaging provider names them (e.g. a phone number)'),
    text: z.string().max(10_000),
  })
  .meta({ id: 'MessagingReceivedPayload' });

export const PaymentsEventPayload = z
  .object({
    amount: z.number().int().describe('In the currency\'s minor unit (cents)'),
    currency: z.string().regex(/^[A-Z]{3}$/, 'must be an ISO 4217 code such as EUR'),
    customer: z
      .object({ id: z.string().max(200).optional(), name: z.string().max(200).optional(), email: z.string().max(254).optional() })
      .describe('The customer as the payments provider knows them'),
    kind: z.enum(['payment', 'subscription', 'invoice']),
  })
  .meta({ id: 'PaymentsEventPayload' });

const Answer = z.union([z.string().max(10_000), z.number(), z.boolean(), z.array(z.string().max(1_000)).max(100), z.null()]);

export const FormSubmittedPayload = z
  .object({
    formId: z.string().min(1).max(200),
    answers: z.array(z.object({ question: z.string().max(1_000), answer: Answer })).max(500).describe('Every answer, in form order'),
  })
  .meta({ id: 'FormSubmittedPayload' });

export const integrationPayloads = {
  'messaging.received': MessagingReceivedPayload,
  'payments.event': PaymentsEventPayload,
  'form.submitted': FormSubmittedPayload,
} as const;
export type IntegrationType = keyof typeof integrationPayloads;
export const INTEGRATION_TYPES = Object.keys(integrationPayloads) as IntegrationType[];
