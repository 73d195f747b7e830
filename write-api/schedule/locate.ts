import type { AppContext } from '../../services/app-context';

/**
 * Looks something up in a read model on behalf of a command. A miss may only mean the projection has not caught up
 * yet, so on a miss it waits (bounded) until the read model reaches the head of the log and looks once more.
 */
export async function lookupCaughtUp<T>(app: AppContext, find: () => Promise<T | null>): Promise<T | null> {
  const first = await find();
  if (first) return first;
  const head = await app.events.headPosition();
  await app.watermarks.waitFor(app.projectionNames, head, app.config.MIN_POSITION_WAIT_MS);
  return find();
}
