/** PATCH and DELETE /events/{id}/occurrences/{occurrenceStartsAt}, POST /events/{id}/split (session-only). */
import { findOperation } from '../../contracts/operation';
import { occurrenceOperations, type SplitEventBody, type UpdateOccurrenceBody } from '../../contracts/occurrences';
import type { AppContext } from '../../services/app-context';
import { decided } from '../../services/commands/command-handler';
import { deterministicUuid } from '../../services/ids';
import { route } from '../../services/http/route';
import { eventCommands } from './event-commands';

type OccurrenceParams = { id: string; occurrenceStartsAt: string };
const OCCURRENCE = '/events/{id}/occurrences/{occurrenceStartsAt}';

export function occurrencesWriteRoutes(app: AppContext) {
  const { eventLocation, checkGoal, changesOf, run, ifMatch, answer } = eventCommands(app);
  const now = () => new Date().toISOString();

  return [
    route<UpdateOccurrenceBody, unknown, OccurrenceParams>(findOperation(occurrenceOperations, 'patch', OCCURRENCE), async (input) => {
      const located = await eventLocation(input.params.id);
      const at = Date.parse(input.params.occurrenceStartsAt);
      const own = located.exceptions.find((x) => Date.parse(x.occurrenceStartsAt) === at);
      const changes = await changesOf(input, input.body, own?.attendees ?? located.attendees);
      const result = await run(input, located.spaceId, {
        type: 'ChangeOccurrence', actorId: input.principal!.userId, eventId: located.id, occurrenceStartsAt: new Date(at).toISOString(),
        changes, expectedVersions: ifMatch(input), now: now(),
      });
      return answer(200, decided(result.events, 'event.occurrence.changed').occurrence, result.position);
    }),

    route<unknown, unknown, OccurrenceParams>(findOperation(occurrenceOperations, 'delete', OCCURRENCE), async (input) => {
      const located = await eventLocation(input.params.id);
      const result = await run(input, located.spaceId, {
        type: 'CancelOccurrence', actorId: input.principal!.userId, eventId: located.id,
        occurrenceStartsAt: new Date(input.params.occurrenceStartsAt).toISOString(), expectedVersions: ifMatch(input), now: now(),
      });
      return { status: 204, position: result.position };
    }),

    route<SplitEventBody, unknown, { id: string }>(findOperation(occurrenceOperations, 'post', '/events/{id}/split'), async (input) => {
      const located = await eventLocation(input.params.id);
      const { occurrenceStartsAt, ...body } = input.body;
      await checkGoal(input.principal!.userId, body.goalId);
      const result = await run(input, located.spaceId, {
        type: 'SplitSeries', actorId: input.principal!.userId, eventId: located.id, newEventId: deterministicUuid(input.commandId, 'event'),
        occurrenceStartsAt: new Date(occurrenceStartsAt).toISOString(), changes: await changesOf(input, body, located.attendees),
        expectedVersions: ifMatch(input), now: now(),
      });
      return answer(201, decided(result.events, 'event.created'), result.position);
    }),
  ];
}
