import { createHmac, timingSafeEqual } from 'node:crypto';
import { integrationOperations, type InboundBody } from '../../contracts/integrations';
import { findOperation } from '../../contracts/operation';
import { userById } from '../../read-api/profile/users.queries';
import type { AppContext } from '../../services/app-context';
import { ApiError, notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { lookupCaughtUp } from '../schedule/locate';
import { integrationDecider, integrationStream, type IntegrationEvent } from './integration.decider';

function signatureMatches(secret: string, body: Buffer, signature: string | undefined): boolean {
  if (!signature || !/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  const expected = createHmac('sha256', secret).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

export function integrationsRoutes(app: AppContext) {
  return [
    route<InboundBody>(
      findOperation(integrationOperations, 'post', '/integrations/inbound'),
      async (input) => {
        const { type, userId, data } = input.body;
        if (!(await lookupCaughtUp(app, () => userById(app.readModels, userId)))) throw notFound('User');
        const event = { type, data: { userId, payload: data } } as IntegrationEvent;
        const result = await app.commands.handle(integrationStream(userId), integrationDecider, { type: 'RecordInbound', event }, {
          userId: null, commandId: input.commandId, correlationId: input.requestId,
        });
        return { status: 202, body: { id: result.eventIds[0], type }, position: result.position };
      },
      // The signature is checked before the body is read or an Idempotency-Key is honoured: unsigned callers get nothing.
      ({ header, rawBody }) => {
        const secret = app.config.INTEGRATIONS_SECRET;
        if (!secret) throw notFound('Route');
        if (!signatureMatches(secret, rawBody ?? Buffer.alloc(0), header('X-Integration-Signature'))) {
          throw new ApiError(401, 'invalid_signature', 'X-Integration-Signature does not match the body');
        }
      },
    ),
  ];
}
