/** Webhook management (session only), the delivery body and the delivery log. Types: webhook-catalogue.ts. */
import { z } from 'zod';
import { DateTime, ErrorEnvelope, IdParams, NonBlankText, Uuid } from './common';
import * as examples from './examples';
import { op } from './operation';
import { WEBHOOK_CATALOGUE, WEBHOOK_TYPES } from './webhook-catalogue';

export const WebhookEventType = z.enum(WEBHOOK_TYPES as [string, ...string[]]).meta({ id: 'WebhookEventType' });

export const WebhookEvents = z
  .array(z.union([z.literal('*'), WebhookEventType]))
  .min(1)
  .max(WEBHOOK_TYPES.length)
  .refine((types) => !types.includes('*') || types.length === 1, { message: '"*" subscribes to every type and stands alone' })
  // The same rule for the document: no "*" in the list, or a list of one.
  .meta({
    description: 'Subscribed types, or `["*"]` for every type (integration types included); "*" stands alone',
    anyOf: [{ items: { not: { const: '*' } } }, { maxItems: 1 }],
  });

const WebhookUrl = z
  .url({ protocol: /^https?$/ })
  .max(2_000)
  .describe('http(s) URL; loopback, link-local and private addresses are refused unless the operator allows them');

export const Webhook = z
  .object({
    id: Uuid,
    name: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .meta({ id: 'Webhook', description: 'A webhook; its secret is shown once, at creation.', examples: [examples.webhook] });
export type Webhook = z.infer<typeof Webhook>;

export const CreateWebhookBody = z
  .object({ name: NonBlankText(200), url: WebhookUrl, events: WebhookEvents })
  .meta({
    id: 'CreateWebhookBody',
    examples: [{ name: 'CRM sync', url: 'https://crm.example.com/hooks/calendar', events: ['event.created', 'event.updated'] }],
  });
export type CreateWebhookBody = z.infer<typeof CreateWebhookBody>;

export const UpdateWebhookBody = z
  .object({ name: NonBlankText(200), url: WebhookUrl, events: WebhookEvents, enabled: z.boolean() })
  .partial()
  .meta({ id: 'UpdateWebhookBody', description: 'At least one field', examples: [{ enabled: false }] });
export type UpdateWebhookBody = z.infer<typeof UpdateWebhookBody>;

export const WebhookCreated = z
  .object({ webhook: Webhook, secret: z.string().meta({ description: '`whsec_…`: signs every delivery; shown only here', examples: [examples.secrets.webhook] }) })
  .meta({ id: 'WebhookCreated' });

export const WebhookTestResult = z
  .object({
    ok: z.boolean().describe('The receiver answered 2xx'),
    status: z.number().int().nullable().describe('HTTP status of the answer; null when none came'),
    responseTimeMs: z.number().int(),
    error: z.string().nullable().describe('Why it failed (timeout, refused address, ...); null on success'),
  })
  .meta({ id: 'WebhookTestResult', examples: [{ ok: true, status: 200, responseTimeMs: 87, error: null }] });

export const DeliveryAttempt = z
  .object({
    at: DateTime,
    status: z.number().int().nullable(),
    responseTimeMs: z.number().int().nullable(),
    error: z.string().nullable(),
  })
  .meta({ id: 'WebhookDeliveryAttempt', examples: [examples.deliveryAttempt] });

export const Delivery = z
  .object({
    id: Uuid.describe('Sent as X-Calendar-Delivery; the same for every attempt'),
    webhookId: Uuid,
    eventId: Uuid.describe('The domain event id: the body\'s `id`'),
    type: z.string(),
    state: z.enum(['pending', 'delivered', 'failed']),
    attempts: z.array(DeliveryAttempt),
    nextAttemptAt: DateTime.nullable(),
    payload: z.unknown().describe('The JSON body sent'),
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .meta({
    id: 'WebhookDelivery',
    examples: [{
      id: examples.ids.delivery, webhookId: examples.ids.webhook, eventId: examples.ids.domainEvent, type: 'event.created',
      state: 'delivered', attempts: [examples.deliveryAttempt], nextAttemptAt: null,
      payload: { id: examples.ids.domainEvent, type: 'event.created', createdAt: examples.at.created, data: examples.event },
      createdAt: examples.at.created, updatedAt: examples.at.updated,
    }],
  });
export type Delivery = z.infer<typeof Delivery>;

/** The JSON body of every delivery; `data` (and `previous`) per type as the catalogue says. */
export const WebhookEnvelope = z
  .object({
    id: Uuid.meta({ description: 'The domain event id: the same across attempts and redeliveries', examples: [examples.ids.domainEvent] }),
    type: WebhookEventType,
    createdAt: DateTime.meta({ description: 'When the change happened', examples: [examples.at.updated] }),
    data: z.unknown(),
    previous: z.unknown().optional(),
  })
  .meta({ id: 'WebhookEnvelope' });

/** The headers of every delivery attempt. */
export const DELIVERY_HEADERS: ReadonlyArray<[name: string, description: string]> = [
  ['X-Calendar-Signature', 'Lowercase hex HMAC-SHA256 of `{timestamp}.{body}` keyed with the webhook secret'],
  ['X-Calendar-Event', 'The webhook type'],
  ['X-Calendar-Delivery', 'The delivery id: the same on every retry and redelivery'],
  ['X-Calendar-Timestamp', 'Unix seconds of this attempt'],
];

/** The body of each type, for the OpenAPI document's `webhooks` section. */
export const webhookBodies = WEBHOOK_CATALOGUE.map((t) => ({
  type: t.type,
  summary: `${t.type}: ${t.description}`,
  schema: WebhookEnvelope.extend({
    type: z.literal(t.type),
    data: t.data,
    ...(t.previous ? { previous: t.previous } : {}),
  }).meta({ id: `WebhookBody.${t.type}` }),
}));

export const WebhookTypeInfo = z
  .object({ type: z.string(), description: z.string(), listedInSettings: z.boolean(), integration: z.boolean() })
  .meta({ id: 'WebhookTypeInfo', examples: [{ type: 'event.created', description: 'an event is created', listedInSettings: true, integration: false }] });

export const webhookTypeInfos = WEBHOOK_CATALOGUE.map(({ type, description, listedInSettings, integration }) => ({
  type, description, listedInSettings, integration,
}));

const DeliveriesQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50).describe('How many, newest first'),
});

const notFound = { description: 'No such webhook of the caller (other people\'s are 404 too)', schema: ErrorEnvelope };
const WebhookResponse = z.object({ webhook: Webhook }).meta({ id: 'WebhookResponse' });

export const webhookOperations = [
  op({
    method: 'get', path: '/webhooks', tag: 'Webhooks', summary: 'The caller\'s webhooks (never their secrets)',
    responses: { 200: { description: 'Webhooks', schema: z.object({ webhooks: z.array(Webhook) }).meta({ id: 'WebhookList' }) } },
  }),
  op({
    method: 'post', path: '/webhooks', tag: 'Webhooks', summary: 'Create a webhook', body: CreateWebhookBody,
    description: 'Answers the signing secret (`whsec_…`) once. It delivers changes committed after its creation.',
    responses: { 201: { description: 'Created, with the secret', schema: WebhookCreated } },
  }),
  op({
    method: 'patch', path: '/webhooks/{id}', tag: 'Webhooks', summary: 'Update, enable or disable a webhook',
    params: IdParams, body: UpdateWebhookBody,
    responses: { 200: { description: 'Updated', schema: WebhookResponse }, 404: notFound },
  }),
  op({
    method: 'delete', path: '/webhooks/{id}', tag: 'Webhooks', summary: 'Delete a webhook and its delivery log',
    params: IdParams, responses: { 204: { description: 'Deleted' }, 404: notFound },
  }),
  op({
    method: 'post', path: '/webhooks/{id}/test', tag: 'Webhooks', summary: 'Send a signed test delivery',
    description: 'POSTs `{id, type: "webhook.test", createdAt, data: {webhookId}}` with the usual headers, now, once; ' +
      'not recorded in the delivery log.',
    params: IdParams,
    responses: { 200: { description: 'What the receiver answered', schema: WebhookTestResult }, 404: notFound },
  }),
  op({
    method: 'get', path: '/webhooks/{id}/deliveries', tag: 'Webhooks', summary: 'Delivery log with every attempt',
    params: IdParams, query: DeliveriesQuery,
    responses: {
      200: { description: 'Deliveries, newest first', schema: z.object({ deliveries: z.array(Delivery) }).meta({ id: 'WebhookDeliveryList' }) },
      404: notFound,
    },
  }),
  op({
    method: 'post', path: '/webhooks/deliveries/{id}/redeliver', tag: 'Webhooks', summary: 'Send a past delivery again',
    description: 'The same delivery (same X-Calendar-Delivery and body) gets a new round of attempts, with retries.',
    params: IdParams,
    responses: {
      202: { description: 'Queued', schema: z.object({ delivery: Delivery }).meta({ id: 'WebhookRedelivery' }) },
      404: { description: 'No such delivery of the caller', schema: ErrorEnvelope },
    },
  }),
  op({
    method: 'get', path: '/webhooks/event-types', tag: 'Webhooks', summary: 'The webhook event types',
    description: 'The seventeen domain types in the order of the spec (`listedInSettings` false only for ' +
      'routine.period.skipped), then the three integration types (`integration: true`).',
    responses: {
      200: {
        description: 'Types', schema: z.object({ eventTypes: z.array(WebhookTypeInfo) }).meta({ id: 'WebhookEventTypes' }),
      },
    },
  }),
];
