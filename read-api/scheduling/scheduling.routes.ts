/** POST /free-busy and POST /meeting-suggestions: people's inputs read here, answers worked out by the engine. */
import { findOperation } from '../../contracts/operation';
import { schedulingOperations, type FreeBusyBody, type MeetingSuggestionsBody } from '../../contracts/scheduling';
import type { AppContext } from '../../services/app-context';
import { expansionEstimate } from '../../services/availability/busy';
import { inputWindow } from '../../services/availability/engine';
import { route } from '../../services/http/route';
import { routineBlocks } from '../routines/routines.queries';
import { schedulingAnswerOf, type SchedulingRequest } from './answers';
import { distinctRefs, peopleInputs } from './people';

const NO_BUFFERS = { bufferBeforeMinutes: 0, bufferAfterMinutes: 0 };

export function schedulingRoutes(app: AppContext) {
  const answer = async (userId: string, req: SchedulingRequest, refs: readonly string[]) => {
    const window = inputWindow({ start: Date.parse(req.body.from), end: Date.parse(req.body.to) }, NO_BUFFERS);
    const people = await peopleInputs(app.readModels, routineBlocks, userId, distinctRefs(refs), window);
    const items = people.reduce((n, { inputs: i }) =>
      n + (i ? i.events.placed.length + i.routines.length + expansionEstimate(i.events.events, window) : 0), 0);
    const threads = app.answerThreads;
    const json = threads && items >= app.config.HEAVY_READ_OFFLOAD_ITEMS
      ? await threads.answer({ of: 'people', req, inputs: { people } })
      : Buffer.from(JSON.stringify(schedulingAnswerOf(req, { people })));
    return { status: 200, json };
  };
  return [
    route<FreeBusyBody>(findOperation(schedulingOperations, 'post', '/free-busy'), ({ body, principal }) =>
      answer(principal!.userId, { kind: 'free-busy-people', body, now: Date.now() }, body.people)),
    route<MeetingSuggestionsBody>(findOperation(schedulingOperations, 'post', '/meeting-suggestions'), ({ body, principal }) =>
      answer(principal!.userId, { kind: 'meeting-suggestions', body, now: Date.now() }, body.attendees)),
  ];
}
