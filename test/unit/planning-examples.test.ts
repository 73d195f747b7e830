/** Every example of the planning contracts (OpenAPI docs, schemathesis) is valid for its own schema. */
import type { z } from 'zod';
import * as bugReports from '../../contracts/bug-reports';
import * as eventTypes from '../../contracts/event-types';
import * as focus from '../../contracts/focus';
import * as goals from '../../contracts/goals';
import * as insights from '../../contracts/insights';

const exported: Record<string, unknown> = { ...focus, ...goals, ...eventTypes, ...insights, ...bugReports };
const named = Object.entries(exported).filter(
  (entry): entry is [string, z.ZodType] => typeof (entry[1] as z.ZodType)?.meta === 'function' && !!(entry[1] as z.ZodType).meta()?.id,
);

describe('planning contract examples', () => {
  it('names the request and response schemas', () => {
    expect(named.map(([name]) => name)).toEqual(expect.arrayContaining([
      'FocusSession', 'StartFocusBody', 'FocusActionBody', 'FocusSessionResponse', 'CurrentFocusResponse', 'Goal',
      'CreateGoalBody', 'UpdateGoalBody', 'GoalResponse', 'GoalListResponse', 'EventType', 'CreateEventTypeBody',
      'UpdateEventTypeBody', 'EventTypeResponse', 'EventTypeListResponse', 'Insights', 'BugReport', 'CreateBugReportBody',
      'BugReportResponse', 'BugReportListResponse',
    ]));
  });

  it.each(named)('%s has examples, each valid', (_name, schema) => {
    const examples = schema.meta()?.examples as unknown[] | undefined;
    expect(examples?.length).toBeGreaterThan(0);
    for (const example of examples!) expect(schema.safeParse(example).error?.issues).toBeUndefined();
  });
});
