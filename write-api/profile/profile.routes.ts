import type { z } from 'zod';
import { findOperation, } from '../../contracts/operation';
import { profileOperations, type UpdateProfileBody } from '../../contracts/profile';
import type { AppContext } from '../../services/app-context';
import { route } from '../../services/http/route';
import { canonicalZoneName } from '../../services/time/zone';
import { decided } from '../../services/commands/command-handler';
import { claimDecider, claimStream } from '../accounts/claim.decider';
import { claimUsername } from '../accounts/signup';
import { userDecider, userStream } from '../accounts/user.decider';

export function profileWriteRoutes(app: AppContext) {
  return [
    route<z.infer<typeof UpdateProfileBody>>(findOperation(profileOperations, 'patch', '/me'), async (input) => {
      const userId = input.principal!.userId;
      const ctx = { userId, commandId: input.commandId, correlationId: input.requestId };
      const before = (await app.commands.load(userStream(userId), userDecider)).state.user!;
      const { username, ...rest } = input.body;
      const changes: typeof input.body = { ...rest };
      if (rest.timeZone) changes.timeZone = canonicalZoneName(rest.timeZone);
      if (username && username !== before.username) {
        changes.username = await claimUsername(app, username, userId, ctx, true);
      }
      const result = await app.commands.handle(userStream(userId), userDecider, { type: 'UpdateProfile', changes, now: new Date().toISOString() }, ctx);
      if (changes.username) {
        await app.commands.handle(claimStream(app.claimSecret, 'username', before.username), claimDecider, { type: 'Release', kind: 'username', value: before.username, userId }, ctx);
      }
      return { status: 200, body: { user: decided(result.events, 'user.profile_updated').user }, position: result.position };
    }),
  ];
}
