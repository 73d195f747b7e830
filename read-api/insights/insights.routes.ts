import type { z } from 'zod';
import { insightOperations, type InsightsQuery } from '../../contracts/insights';
import { findOperation } from '../../contracts/operation';
import type { AppContext } from '../../services/app-context';
import { route } from '../../services/http/route';
import { userById } from '../profile/users.queries';
import { weeklyInsights } from './insights.queries';

export function insightsRoutes(app: AppContext) {
  return [
    route<unknown, z.infer<typeof InsightsQuery>>(findOperation(insightOperations, 'get', '/insights'), async ({ query, principal }) => {
      const userId = principal!.userId;
      const timeZone = (await userById(app.readModels, userId))?.timeZone ?? 'UTC';
      return { status: 200, body: await weeklyInsights(app.readModels, userId, query.from, timeZone, Date.now()) };
    }),
  ];
}
