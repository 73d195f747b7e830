/** Commands on the caller's own stream (focus sessions, goals, event types), and answers that carry an ETag. */
import type { Operation } from '../../contracts/operation';
import type { AppContext } from '../../services/app-context';
import type { Decider } from '../../services/commands/decider';
import { etagOf, expectedVersions } from '../../services/http/etag';
import { route, type Input } from '../../services/http/route';
import type { CollectionCommand } from './collection.decider';

type AnyInput = Input<unknown, unknown, unknown>;

export function ownStream<C, E extends { type: string; data: unknown }, S>(
  app: AppContext, decider: Decider<C, E, S>, streamOf: (userId: string) => string,
) {
  return (input: AnyInput, command: C) => {
    const userId = input.principal!.userId;
    return app.commands.handle(streamOf(userId), decider, command, { userId, commandId: input.commandId, correlationId: input.requestId });
  };
}

export const ifMatch = (input: AnyInput) => expectedVersions(input.header('If-Match'));

/** `{<name>: item}` with the item's ETag. */
export const withEtag = (status: number, name: string, item: { version: number }, position: number | null) => ({
  status, body: { [name]: item }, headers: { ETag: etagOf(item.version) }, position,
});

/** DELETE of an item of a collection: 204 once deleted. */
export const deleteRoute = <F, Ch>(operation: Operation, run: (input: AnyInput, command: CollectionCommand<F, Ch>) => Promise<{ position: number | null }>) =>
  route<unknown, unknown, { id: string }>(operation, async (input) => {
    const result = await run(input, { type: 'Delete', id: input.params.id, expectedVersions: ifMatch(input), now: new Date().toISOString() });
    return { status: 204, position: result.position };
  });
