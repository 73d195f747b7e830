/** The caller's plan, this month's AI answers, the plans on offer and where to upgrade (GET /me/plan). */
import { z } from 'zod';
import { DateTime } from './common';
import { op } from './operation';

export const PlanId = z.enum(['free', 'pro']);

export const Plan = z
  .object({
    id: PlanId,
    name: z.string(),
    aiAnswersPerMonth: z.number().int().describe('Assistant answers included each calendar month (UTC)'),
    price: z
      .object({ amount: z.number().int().describe('Minor units (cents)'), currency: z.string(), interval: z.literal('month') })
      .nullable()
      .describe('null for the free plan'),
    features: z.array(z.string()),
  })
  .meta({
    id: 'Plan',
    examples: [{
      id: 'pro', name: 'Pro', aiAnswersPerMonth: 1000, price: { amount: 800, currency: 'EUR', interval: 'month' },
      features: ['Everything in Free', '1000 assistant answers a month', 'Automations with webhooks'],
    }],
  });
export type Plan = z.infer<typeof Plan>;

export const AiAnswersUsage = z
  .object({
    month: z.string().regex(/^\d{4}-\d{2}$/).describe('The calendar month counted (UTC), YYYY-MM'),
    used: z.number().int().describe('Assistant answers given this month'),
    limit: z.number().int().describe('Included in the plan'),
    resetsAt: DateTime.describe('When the count starts again at 0'),
  })
  .meta({ id: 'AiAnswersUsage', examples: [{ month: '2031-05', used: 12, limit: 50, resetsAt: '2031-06-01T00:00:00.000Z' }] });

export const PlanResponse = z
  .object({
    plan: Plan.describe('The caller\'s current plan'),
    aiAnswers: AiAnswersUsage,
    plans: z.array(Plan).describe('Every plan on offer, cheapest first'),
    upgradeUrl: z.string().describe('Where the web app lets the caller change plan: absolute when WEB_ORIGIN is configured, else a path of the web app'),
  })
  .meta({
    id: 'AccountPlanResponse',
    examples: [{
      plan: { id: 'free', name: 'Free', aiAnswersPerMonth: 50, price: null, features: ['Calendar, tasks, routines and focus', '50 assistant answers a month'] },
      aiAnswers: { month: '2031-05', used: 12, limit: 50, resetsAt: '2031-06-01T00:00:00.000Z' },
      plans: [
        { id: 'free', name: 'Free', aiAnswersPerMonth: 50, price: null, features: ['Calendar, tasks, routines and focus', '50 assistant answers a month'] },
        { id: 'pro', name: 'Pro', aiAnswersPerMonth: 1000, price: { amount: 800, currency: 'EUR', interval: 'month' }, features: ['Everything in Free', '1000 assistant answers a month', 'Automations with webhooks'] },
      ],
      upgradeUrl: 'https://app.example.com/settings/plan',
    }],
  });

export const planOperations = [
  op({
    method: 'get', path: '/me/plan', tag: 'Profile', summary: 'Plan, this month\'s AI answers, plans on offer, upgrade location',
    responses: { 200: { description: 'The plan', schema: PlanResponse } },
  }),
];
