/** Payload (`data` / `previous`) schemas of the integration layer's webhook types, and the `previous` of task.due_changed. */
import { z } from 'zod';
import { DateTime } from './common';

export const TaskDueChangedPrevious = z
  .object({ dueAt: DateTime.nullable().describe('The due date before the change (null: there was none)') })
  .meta({ id: 'TaskDueChangedPrevious', examples: [{ dueAt: '2026-03-18T17:00:00.000Z' }] });

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
