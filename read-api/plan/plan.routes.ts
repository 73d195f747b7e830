import { findOperation } from '../../contracts/operation';
import { planOperations, type Plan } from '../../contracts/plan';
import type { AppContext } from '../../services/app-context';
import { route } from '../../services/http/route';
import { AiAnswers, nextMonthStart, usageMonth } from './ai-answers';

/** The plans on offer, cheapest first. Billing is not part of this service yet: everyone is on the first one. */
export const PLANS: readonly Plan[] = [
  {
    id: 'free', name: 'Free', aiAnswersPerMonth: 50, price: null,
    features: ['Calendar, tasks, projects, routines, goals and focus', 'Booking pages', '50 assistant answers a month'],
  },
  {
    id: 'pro', name: 'Pro', aiAnswersPerMonth: 1000, price: { amount: 800, currency: 'EUR', interval: 'month' },
    features: ['Everything in Free', '1000 assistant answers a month', 'Automations with webhooks'],
  },
];

const UPGRADE_PATH = '/settings/plan';

export function planReadRoutes(app: AppContext) {
  const answers = new AiAnswers(app.store);
  const webOrigin = app.config.WEB_ORIGIN?.split(',')[0]?.trim().replace(/\/+$/, '');
  return [
    route(findOperation(planOperations, 'get', '/me/plan'), async ({ principal }) => {
      const now = new Date();
      const plan = PLANS[0];
      return {
        status: 200,
        body: {
          plan,
          aiAnswers: { month: usageMonth(now), used: await answers.usage(principal!.userId, now), limit: plan.aiAnswersPerMonth, resetsAt: nextMonthStart(now) },
          plans: PLANS,
          upgradeUrl: webOrigin ? `${webOrigin}${UPGRADE_PATH}` : UPGRADE_PATH,
        },
      };
    }),
  ];
}
