/**
 * What the tasks decider needs to know about an assignee beyond the owner's board: that they are a user of the
 * caller's environment (test keys never reach live people, nor live keys test accounts), and whether they share a
 * Space with the owner (Space memberships live in the schedule read model; organizations are shared Spaces).
 */
import { spaceIdsOf } from '../../read-api/spaces/spaces.queries';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import type { Principal } from '../../services/http/principal';
import { userDecider, userStream } from '../accounts/user.decider';
import { isTestAccountEmail } from '../api-keys/test-environment';
import { lookupCaughtUp } from '../schedule/locate';

async function sharesASpace(app: AppContext, ownerId: string, assigneeId: string): Promise<true | null> {
  const [own, theirs] = await Promise.all([spaceIdsOf(app.readModels, ownerId), spaceIdsOf(app.readModels, assigneeId)]);
  const ownSet = new Set(own);
  return theirs.some((id) => ownSet.has(id)) || null;
}

/** `assigneeSharesASpace` for a command naming `assigneeId` on `ownerId`'s board; 404 for nobody the caller may reach. */
export async function assigneeFacts(app: AppContext, principal: Principal, ownerId: string, assigneeId: string | null | undefined) {
  if (!assigneeId || assigneeId === ownerId) return {};
  const user = (await app.commands.load(userStream(assigneeId), userDecider)).state.user;
  if (!user || isTestAccountEmail(user.email) !== (principal.environment === 'test')) throw notFound('Assignee (assigneeId)');
  // A membership just granted may not be in the read model yet: a miss waits for it once.
  return { assigneeSharesASpace: (await lookupCaughtUp(app, () => sharesASpace(app, ownerId, assigneeId))) === true };
}
