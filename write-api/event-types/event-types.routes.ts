import { eventTypeOperations, type CreateEventTypeBody, type UpdateEventTypeBody } from '../../contracts/event-types';
import { findOperation } from '../../contracts/operation';
import type { AppContext } from '../../services/app-context';
import { decided } from '../../services/commands/command-handler';
import { route } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { deleteRoute, ifMatch, ownStream, withEtag } from '../shared/own-stream';
import { eventTypesDecider, eventTypesStream } from './event-types.decider';

export function eventTypesWriteRoutes(app: AppContext) {
  const run = ownStream(app, eventTypesDecider, eventTypesStream);
  return [
    route<CreateEventTypeBody>(findOperation(eventTypeOperations, 'post', '/event-types'), async (input) => {
      const b = input.body;
      const result = await run(input, {
        type: 'Create', id: deterministicUuid(input.commandId, 'event-type'), now: new Date().toISOString(),
        fields: { name: b.name, color: b.color, baseKind: b.baseKind ?? null, defaultMinutes: b.defaultMinutes ?? null },
      });
      return withEtag(201, 'eventType', decided(result.events, 'event_type.created'), result.position);
    }),

    route<UpdateEventTypeBody, unknown, { id: string }>(findOperation(eventTypeOperations, 'patch', '/event-types/{id}'), async (input) => {
      const { name, color } = input.body;
      const result = await run(input, {
        type: 'Update', id: input.params.id, expectedVersions: ifMatch(input), now: new Date().toISOString(),
        changes: { ...(name === undefined ? {} : { name }), ...(color === undefined ? {} : { color }) },
      });
      return withEtag(200, 'eventType', decided(result.events, 'event_type.updated'), result.position);
    }),

    deleteRoute(findOperation(eventTypeOperations, 'delete', '/event-types/{id}'), run),
  ];
}
