import { focusOperations, focusView, type FocusActionBody, type FocusSessionRecord, type StartFocusBody } from '../../contracts/focus';
import { findOperation } from '../../contracts/operation';
import { visibleEvent } from '../../read-api/events/events.queries';
import { ownGoal } from '../../read-api/goals/goals.queries';
import type { AppContext } from '../../services/app-context';
import { decided } from '../../services/commands/command-handler';
import { notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { lookupCaughtUp } from '../schedule/locate';
import { ifMatch, ownStream, withEtag } from '../shared/own-stream';
import { focusDecider, focusStream } from './focus.decider';

type IdParams = { id: string };

const moves = { pause: 'PauseFocus', resume: 'ResumeFocus', stop: 'StopFocus' } as const;

export function focusWriteRoutes(app: AppContext) {
  const run = ownStream(app, focusDecider, focusStream);
  const answer = (status: number, session: FocusSessionRecord, position: number | null) =>
    withEtag(status, 'session', focusView(session, Date.now()), position);
  const goalOf = async (userId: string, goalId: string) => lookupCaughtUp(app, () => ownGoal(app.readModels, userId, goalId));

  /** The goal the session counts for: the one named, else its event's when that goal is the caller's. */
  const links = async (userId: string, b: StartFocusBody) => {
    if (b.goalId && !(await goalOf(userId, b.goalId))) throw notFound('Goal');
    let goalId = b.goalId ?? null;
    if (b.eventId) {
      const event = await lookupCaughtUp(app, () => visibleEvent(app.readModels, userId, b.eventId!));
      if (!event) throw notFound('Event');
      if (!goalId && event.goalId && (await goalOf(userId, event.goalId))) goalId = event.goalId;
    }
    return { taskId: b.taskId ?? null, eventId: b.eventId ?? null, goalId, label: b.label ?? null, plannedMinutes: b.minutes ?? null };
  };

  return [
    route<StartFocusBody>(findOperation(focusOperations, 'post', '/focus'), async (input) => {
      const userId = input.principal!.userId;
      const result = await run(input, {
        type: 'StartFocus', sessionId: deterministicUuid(input.commandId, 'focus-session'), userId,
        links: await links(userId, input.body), now: new Date().toISOString(),
      });
      return answer(201, decided(result.events, 'focus.started'), result.position);
    }),

    route<FocusActionBody, unknown, IdParams>(findOperation(focusOperations, 'patch', '/focus/{id}'), async (input) => {
      const result = await run(input, {
        type: moves[input.body.action], sessionId: input.params.id,
        expectedVersions: ifMatch(input), now: new Date().toISOString(),
      });
      return answer(200, result.events[0].data, result.position);
    }),
  ];
}
