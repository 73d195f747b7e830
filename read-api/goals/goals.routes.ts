import { goalOperations } from '../../contracts/goals';
import { findOperation } from '../../contracts/operation';
import type { PageQuery } from '../../contracts/paging';
import type { AppContext } from '../../services/app-context';
import { route } from '../../services/http/route';
import { weekAt } from '../../services/time/week';
import { userById } from '../profile/users.queries';
import { goalProgress, goalsPage } from './goals.queries';

export function goalsReadRoutes(app: AppContext) {
  return [
    route<unknown, PageQuery>(findOperation(goalOperations, 'get', '/goals'), async ({ query, principal }) => {
      const userId = principal!.userId;
      const now = Date.now();
      const week = weekAt(now, (await userById(app.readModels, userId))?.timeZone ?? 'UTC');
      const page = await goalsPage(app.readModels, userId, query);
      const progress = await goalProgress(app.readModels, page.goals.map((g) => g.id), week.start, week.end, now);
      return {
        status: 200,
        body: {
          weekStart: week.monday,
          goals: page.goals.map((g) => ({ ...g, ...progress.get(g.id)! })),
          nextPageToken: page.nextPageToken,
        },
      };
    }),
  ];
}
