/** The integration layer's inbound endpoint: messaging, payments and form providers post here. */
import { z } from 'zod';
import { ErrorEnvelope, Uuid } from './common';
import * as examples from './examples';
import { op } from './operation';
import { FormSubmittedPayload, MessagingReceivedPayload, PaymentsEventPayload } from './webhook-payloads';

const inbound = <T extends string, S extends z.ZodType>(type: T, data: S) =>
  z.strictObject({ type: z.literal(type), userId: Uuid.describe('Whose webhooks receive it'), data });

export const InboundBody = z
  .discriminatedUnion('type', [
    inbound('messaging.received', MessagingReceivedPayload),
    inbound('payments.event', PaymentsEventPayload),
    inbound('form.submitted', FormSubmittedPayload),
  ])
  .meta({
    id: 'IntegrationInboundBody',
    examples: [{ type: 'messaging.received', userId: examples.ids.user, data: { sender: '+44 20 7946 0958', text: 'Running 10 minutes late' } }],
  });
export type InboundBody = z.infer<typeof InboundBody>;

export const InboundAccepted = z
  .object({ id: Uuid.describe('The domain event id: the `id` of the deliveries it makes'), type: z.string() })
  .meta({ id: 'IntegrationInboundAccepted', examples: [{ id: examples.ids.domainEvent, type: 'messaging.received' }] });

export const integrationOperations = [
  op({
    method: 'post', path: '/integrations/inbound', tag: 'Integrations', summary: 'Report an event of a connected provider',
    description: 'Called by the integration layer, not by users. Header `X-Integration-Signature`: lowercase hex ' +
      'HMAC-SHA256 of the raw body keyed with the operator\'s `INTEGRATIONS_SECRET` (404 while that is unset). The ' +
      'event is delivered to the user\'s webhooks subscribed to its type. Send an Idempotency-Key to make retries safe.',
    body: InboundBody,
    responses: {
      202: { description: 'Recorded; deliveries follow', schema: InboundAccepted },
      401: { description: 'Missing or wrong signature (`invalid_signature`)', schema: ErrorEnvelope },
      404: { description: 'Inbound calls are not configured, or no such user', schema: ErrorEnvelope },
    },
  }),
];
