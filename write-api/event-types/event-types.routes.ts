import {
  eventTypeOperations, type CreateEventTypeBody, type EventType, type UpdateEventTypeBody,
} from '../../contracts/event-types';
import { findOperation } from '../../contracts/operation';
import type { AppContext } from '../../services/app-context';
import { decided } from '../../services/commands/command-handler';
import { etagOf, expectedVersions } from '../../services/http/etag';
import { route, type Input } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { eventTypesDecider, eventTypesStream } from './event-types.decider';

type IdParams = { id: string };

export function eventTypesWriteRoutes(app: AppContext) {
  const run = (input: Input<unknown, unknown, unknown>, command: Parameters<typeof eventTypesDecider.decide>[0]) => {
    const userId = input.principal!.userId;
    return app.commands.handle(eventTypesStream(userId), eventTypesDecider, command, {
      userId, commandId: input.commandId, correlationId: input.requestId,
    });
  };
  const answer = (status: number, eventType: EventType, position: number | null) => ({
    status, body: { eventType }, headers: { ETag: etagOf(eventType.version) }, position,
  });

  return [
    route<CreateEventTypeBody>(findOperation(eventTypeOperations, 'post', '/event-types'), async (input) => {
      const b = input.body;
      const result = await run(input, {
        type: 'Create', id: deterministicUuid(input.commandId, 'event-type'), now: new Date().toISOString(),
        fields: { name: b.name, color: b.color, baseKind: b.baseKind ?? null, defaultMinutes: b.defaultMinutes ?? null },
      });
      return answer(201, decided(result.events, 'event_type.created'), result.position);
    }),

    route<UpdateEventTypeBody, unknown, IdParams>(findOperation(eventTypeOperations, 'patch', '/event-types/{id}'), async (input) => {
      const { name, color } = input.body;
      const result = await run(input, {
        type: 'Update', id: input.params.id, expectedVersions: expectedVersions(input.header('If-Match')),
        changes: { ...(name === undefined ? {} : { name }), ...(color === undefined ? {} : { color }) },
        now: new Date().toISOString(),
      });
      return answer(200, decided(result.events, 'event_type.updated'), result.position);
    }),

    route<unknown, unknown, IdParams>(findOperation(eventTypeOperations, 'delete', '/event-types/{id}'), async (input) => {
      const result = await run(input, {
        type: 'Delete', id: input.params.id, expectedVersions: expectedVersions(input.header('If-Match')),
        now: new Date().toISOString(),
      });
      return { status: 204, position: result.position };
    }),
  ];
}
