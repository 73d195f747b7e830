import { findOperation } from '../../contracts/operation';
import { spaceOperations } from '../../contracts/spaces';
import type { AppContext } from '../../services/app-context';
import { route } from '../../services/http/route';
import { calendarsOf, spacesOf } from './spaces.queries';

export function spacesReadRoutes(app: AppContext) {
  return [
    route(findOperation(spaceOperations, 'get', '/spaces'), async ({ principal }) => ({
      status: 200,
      body: { spaces: (await spacesOf(app.readModels, principal!.userId)).filter((s) => !s.deletedAt) },
    })),
    route(findOperation(spaceOperations, 'get', '/calendars'), async ({ principal }) => ({
      status: 200,
      body: { calendars: await calendarsOf(app.readModels, app.store, principal!.userId) },
    })),
  ];
}
