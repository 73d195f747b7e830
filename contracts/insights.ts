/** Weekly insights: where the time went, each figure next to the week before. */
import { z } from 'zod';
import { IsoDate, Uuid } from './common';
import { EVENT_KINDS } from './events';
import { op } from './operation';

const Monday = z.iso
  .date()
  .refine((d) => new Date(`${d}T00:00:00Z`).getUTCDay() === 1, 'must be a Monday')
  .describe('Monday of the week, YYYY-MM-DD')
  // JSON Schema cannot name a weekday: `x-weekday` (ISO, 1 = Monday) says it to test tools (test/schemathesis/hooks.py).
  .meta({ examples: ['2026-11-23'], 'x-weekday': 1 });

export const InsightsQuery = z.object({ from: Monday });

const comparison = (thisWeek: number, previousWeek: number) => ({ thisWeek, previousWeek, change: thisWeek - previousWeek });

export const Comparison = z
  .object({ thisWeek: z.number(), previousWeek: z.number(), change: z.number().describe('thisWeek - previousWeek') })
  .meta({ id: 'InsightsComparison', examples: [comparison(240, 180)] });

export const RateComparison = z
  .object({ thisWeek: z.number().nullable(), previousWeek: z.number().nullable(), change: z.number().nullable() })
  .describe('A share between 0 and 1; null when there was nothing to measure')
  .meta({ id: 'InsightsRateComparison', examples: [{ thisWeek: 0.8, previousWeek: 0.6, change: 0.2 }] });

const kindsExample = Object.fromEntries(EVENT_KINDS.map((k) => [k, comparison(0, 0)]));
kindsExample.meeting = comparison(420, 510);
kindsExample.focus = comparison(360, 240);

const example = {
  week: { from: '2026-11-23', to: '2026-11-29', timeZone: 'Europe/Berlin' },
  previousWeek: { from: '2026-11-16', to: '2026-11-22' },
  minutesByKind: kindsExample,
  meetingsVsFocus: { meetingMinutes: comparison(420, 510), focusMinutes: comparison(360, 240) },
  focusSessions: { count: comparison(6, 4), minutes: comparison(270, 180) },
  goals: [{
    goalId: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f', name: 'Learn Spanish', weeklyMinutes: 180,
    plannedMinutes: comparison(180, 120), doneMinutes: comparison(150, 120),
  }],
  routines: {
    completedPeriods: comparison(12, 9), scheduledPeriods: comparison(14, 14),
    completion: { thisWeek: 0.857, previousWeek: 0.643, change: 0.214 },
  },
};

export const Insights = z
  .object({
    week: z.object({ from: IsoDate, to: IsoDate.describe('The Sunday'), timeZone: z.string().describe('The zone the week is read in') }),
    previousWeek: z.object({ from: IsoDate, to: IsoDate }),
    minutesByKind: z
      .object(Object.fromEntries(EVENT_KINDS.map((k) => [k, Comparison])) as Record<(typeof EVENT_KINDS)[number], typeof Comparison>)
      .describe('Minutes of confirmed, timed (not all-day) events by kind; recurring events count each occurrence'),
    meetingsVsFocus: z.object({ meetingMinutes: Comparison, focusMinutes: Comparison })
      .describe('Minutes of `meeting` events against minutes of `focus` events'),
    focusSessions: z.object({ count: Comparison, minutes: Comparison })
      .describe('Stopped focus sessions that started in the week, and their minutes (paused time excluded)'),
    goals: z.array(z.object({
      goalId: Uuid,
      name: z.string(),
      weeklyMinutes: z.number().int(),
      plannedMinutes: Comparison,
      doneMinutes: Comparison,
    })).describe('Every current goal, as GET /goals counts it'),
    routines: z.object({
      completedPeriods: Comparison,
      scheduledPeriods: Comparison,
      completion: RateComparison,
    }).describe('Routine periods marked done against periods the routines scheduled (active routines, their days)'),
  })
  .meta({ id: 'Insights', examples: [example] });
export type Insights = z.infer<typeof Insights>;

export const insightOperations = [
  op({
    method: 'get', path: '/insights', tag: 'Insights', summary: 'A week in figures, compared with the week before',
    description: 'Weeks run Monday to Sunday in the profile\'s time zone; `from` must be a Monday (400 otherwise).',
    query: InsightsQuery,
    responses: { 200: { description: 'Insights', schema: Insights } },
  }),
];
