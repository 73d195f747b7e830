import { findOperation } from '../../contracts/operation';
import { profileOperations } from '../../contracts/profile';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { encodeCursor } from '../sync/cursor';
import { bootstrapLists } from '../sync/bootstrap.queries';
import { syncWatermark } from '../sync/sync.queries';
import { calendarsOf, spacesOf } from '../spaces/spaces.queries';
import { userById } from './users.queries';

export function profileReadRoutes(app: AppContext) {
  const me = async (userId: string) => {
    const user = await userById(app.readModels, userId);
    if (!user) throw notFound('User');
    return user;
  };
  return [
    route(findOperation(profileOperations, 'get', '/me'), async ({ principal }) => ({
      status: 200,
      body: { user: await me(principal!.userId) },
    })),
    route(findOperation(profileOperations, 'get', '/me/bootstrap'), async ({ principal }) => {
      const userId = principal!.userId;
      // Read the watermark first: everything below it is in the lists, so the cursor misses nothing.
      const { watermark: position } = await syncWatermark(app.watermarks);
      const [user, spaces, calendars, lists] = await Promise.all([
        me(userId), spacesOf(app.readModels, userId), calendarsOf(app.readModels, app.store, userId), bootstrapLists(app.readModels, userId),
      ]);
      return {
        status: 200,
        body: { user, spaces, calendars, ...lists, cursor: encodeCursor(app.serverKeys, position), serverTime: new Date().toISOString() },
      };
    }),
  ];
}
