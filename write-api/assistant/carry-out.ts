/**
 * Carries a confirmed suggestion out through the REST routes' own handlers (POST /events, PATCH /events/{id},
 * POST /tasks): the same validation, the same rules and the same refusals (a time conflict is 409 `time_conflict`).
 * The command id derives from the suggestion, so the change gets the same ids however often it is tried: a second
 * try finds it made (`duplicate_id`) and makes nothing twice.
 */
import type { SuggestionProposal } from '../../contracts/assistant';
import type { Event } from '../../contracts/events';
import { findOperation } from '../../contracts/operation';
import type { Task } from '../../contracts/tasks';
import { visibleEvent } from '../../read-api/events/events.queries';
import { visibleTask } from '../../read-api/tasks/tasks.queries';
import type { AppContext } from '../../services/app-context';
import { ApiError, invalid } from '../../services/errors';
import { routeKey, type Input, type Route } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { eventOperations } from '../../contracts/events';
import { taskOperations } from '../../contracts/tasks';
import { eventsWriteRoutes } from '../events/events.routes';
import { lookupCaughtUp } from '../schedule/locate';
import { tasksWriteRoutes } from '../tasks/tasks.routes';

export interface CarriedOut {
  result: { type: 'event' | 'task'; id: string };
  event: Event | null;
  task: Task | null;
}

type AnyInput = Input<unknown, unknown, unknown>;

const isDuplicate = (err: unknown) => err instanceof ApiError && err.code === 'duplicate_id';

export function carryOut(app: AppContext) {
  const routes = new Map<string, Route>([...eventsWriteRoutes(app), ...tasksWriteRoutes(app)].map((r) => [routeKey(r.operation), r]));
  const createEvent = routes.get(routeKey(findOperation(eventOperations, 'post', '/events')))!;
  const updateEvent = routes.get(routeKey(findOperation(eventOperations, 'patch', '/events/{id}')))!;
  const createTask = routes.get(routeKey(findOperation(taskOperations, 'post', '/tasks')))!;

  /** Runs a route's handler as its HTTP request would, after the same body validation. */
  async function call(r: Route, body: unknown, params: unknown, input: AnyInput, commandId: string): Promise<Record<string, unknown>> {
    const parsed = r.operation.body!.safeParse(body);
    if (!parsed.success) {
      throw invalid('The suggestion is no longer valid', parsed.error.issues.map((i) => ({ path: ['proposal', ...i.path.map(String)].join('.'), message: i.message })));
    }
    const reply = await r.handler({ ...input, body: parsed.data, params, query: undefined, commandId, header: () => undefined, rawBody: undefined });
    return reply.body as Record<string, unknown>;
  }

  const ownEvent = (userId: string, id: string) => lookupCaughtUp(app, () => visibleEvent(app.readModels, userId, id));
  const ownTask = (userId: string, id: string) => lookupCaughtUp(app, () => visibleTask(app.readModels, userId, id));

  return async function perform(proposal: SuggestionProposal, suggestionId: string, input: AnyInput): Promise<CarriedOut> {
    const commandId = deterministicUuid(suggestionId, 'carry-out');
    const userId = input.principal!.userId;
    switch (proposal.kind) {
      case 'create_event': {
        const body = { title: proposal.title, kind: proposal.eventKind, startsAt: proposal.startsAt, endsAt: proposal.endsAt, timeZone: proposal.timeZone };
        try {
          const event = (await call(createEvent, body, {}, input, commandId)).event as Event;
          return { result: { type: 'event', id: event.id }, event, task: null };
        } catch (err) {
          if (!isDuplicate(err)) throw err;
          // The POST /events handler names the event after its command id.
          const id = deterministicUuid(commandId, 'event');
          return { result: { type: 'event', id }, event: await ownEvent(userId, id), task: null };
        }
      }
      case 'move_event': {
        const event = (await call(updateEvent, { startsAt: proposal.startsAt, endsAt: proposal.endsAt }, { id: proposal.eventId }, input, commandId)).event as Event;
        return { result: { type: 'event', id: event.id }, event, task: null };
      }
      case 'create_task': {
        try {
          const task = (await call(createTask, { title: proposal.title, dueAt: proposal.dueAt }, {}, input, commandId)).task as Task;
          return { result: { type: 'task', id: task.id }, event: null, task };
        } catch (err) {
          if (!isDuplicate(err)) throw err;
          const id = deterministicUuid(commandId, 'task');
          return { result: { type: 'task', id }, event: null, task: await ownTask(userId, id) };
        }
      }
    }
  };
}
