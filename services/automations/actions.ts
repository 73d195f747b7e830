/**
 * One step of a run: an action carried out as the automation's owner, through the ordinary command handlers.
 *
 * Every step is idempotent: its command id derives from (automation, trigger event, step index), so the ids of
 * what it makes (task, event, notification) and of the events it appends are the same each time it runs. A step
 * run again after a crash either finds its work done (a duplicate id, an append already stored) or does it then.
 */
import { isActionKind, type ActionKind } from '../../contracts/automations';
import { defaultRemindersOf } from '../../contracts/reminders';
import { SCHEDULE } from '../../projections/schedule.projection';
import { userDecider, userStream } from '../../write-api/accounts/user.decider';
import { requestNotification } from '../../write-api/notifications/request-notification';
import { scheduleDecider, scheduleStream } from '../../write-api/schedule/schedule.decider';
import { lookupCaughtUp } from '../../write-api/schedule/locate';
import { tasksDecider, tasksStream } from '../../write-api/tasks/tasks.decider';
import type { AppContext } from '../app-context';
import type { CommandContext } from '../commands/command-handler';
import type { AttemptResult } from '../dispatcher/send';
import { sendSigned } from '../dispatcher/send';
import type { AttemptDoc } from '../dispatcher/webhook-store';
import { ApiError } from '../errors';
import { deterministicUuid } from '../ids';
import { fillPlaceholders } from './payload';
import { triggerOf, type RunDoc } from './run-store';

/** Events appended by automations carry this correlation id prefix: they never trigger automations themselves. */
export const AUTOMATION_CORRELATION = 'automation-run:';

export type StepOutcome =
  | { status: 'succeeded'; output: Record<string, unknown>; attempt?: AttemptDoc }
  | { status: 'failed'; error: { code: string; message: string }; attempt?: AttemptDoc }
  /** A call_webhook attempt failed and will be made again at `nextAttemptMs`. */
  | { status: 'retrying'; attempt: AttemptDoc; nextAttemptMs: number };

export interface Step {
  run: RunDoc;
  index: number;
}

export interface StepServices {
  app: AppContext;
  /** The automation's signing secret, null when it has none. */
  secretOf(automationId: string): Promise<string | null>;
}

const failed = (code: string, message: string): StepOutcome => ({ status: 'failed', error: { code, message } });
const MINUTE = 60_000;
const DAY = 86_400_000;

export const stepCommandId = (run: RunDoc, index: number) =>
  deterministicUuid('automation-step', run.automationId, run.triggerEventId, String(index));

function commandContext(run: RunDoc, index: number): CommandContext {
  return { userId: run.ownerId, commandId: stepCommandId(run, index), correlationId: `${AUTOMATION_CORRELATION}${run._id}` };
}

/** A text field of the step's config with the payload's values filled in; a blank result fails the step. */
function text(step: Step, field: string, max: number): string {
  const template = step.run.actions[step.index].config[field];
  const filled = typeof template === 'string' ? fillPlaceholders(template, triggerOf(step.run), max) : '';
  if (!filled) throw new ApiError(400, 'invalid_config', `${field} is blank once its placeholders are filled`);
  return filled;
}

const config = (step: Step, field: string) => step.run.actions[step.index].config[field];
/** Times counted from the trigger, so a step run again computes the same ones. */
const afterTrigger = (step: Step, ms: number) => new Date(Date.parse(triggerOf(step.run).createdAt) + ms).toISOString();

/** The same id again means this step already made it (possibly since deleted by the owner): done. */
async function once<T extends Record<string, unknown>>(output: T, make: () => Promise<unknown>): Promise<StepOutcome> {
  try {
    await make();
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 'duplicate_id')) throw err;
  }
  return { status: 'succeeded', output };
}

async function createTask(services: StepServices, step: Step): Promise<StepOutcome> {
  const ctx = commandContext(step.run, step.index);
  const owner = step.run.ownerId;
  const taskId = deterministicUuid(ctx.commandId, 'task');
  const days = config(step, 'dueInDays');
  return once({ taskId }, () => services.app.commands.handle(tasksStream(owner), tasksDecider, {
    type: 'CreateTask', actorId: owner, ownerId: owner, now: new Date().toISOString(), taskId, place: {},
    fields: {
      title: text(step, 'title', 500), notes: null, dueAt: typeof days === 'number' ? afterTrigger(step, days * DAY) : null,
      estimateMinutes: null, priority: 'normal', assigneeId: null,
    },
  }, ctx));
}

async function createEvent(services: StepServices, step: Step): Promise<StepOutcome> {
  const { app } = services;
  const ctx = commandContext(step.run, step.index);
  const owner = (await app.commands.load(userStream(step.run.ownerId), userDecider)).state.user;
  if (!owner) return failed('owner_missing', 'The automation\'s owner no longer exists');
  const calendar = await lookupCaughtUp(app, async () => (await app.readModels.docs(SCHEDULE))('calendars').get(owner.defaultCalendarId));
  if (!calendar) return failed('calendar_missing', 'The owner\'s default calendar was not found');
  const spaceId = calendar.spaceId as string;
  const eventId = deterministicUuid(ctx.commandId, 'event');
  const startsAt = afterTrigger(step, (config(step, 'startsInMinutes') as number) * MINUTE);
  const endsAt = new Date(Date.parse(startsAt) + (config(step, 'durationMinutes') as number) * MINUTE).toISOString();
  return once({ eventId }, () => app.commands.handle(scheduleStream(spaceId), scheduleDecider, {
    type: 'CreateEvent', actorId: owner.id, eventId, now: new Date().toISOString(),
    fields: {
      calendarId: owner.defaultCalendarId, title: text(step, 'title', 500), description: null, location: null, meetingUrl: null,
      kind: 'meeting', startsAt, endsAt, timeZone: owner.timeZone, allDay: false, busy: true, recurrenceRule: null,
      taskId: null, goalId: null, resources: [], attendees: [], reminders: defaultRemindersOf(owner.preferences), allowOverlap: false,
    },
  }, { ...ctx, spaceId }));
}

async function sendNotification(services: StepServices, step: Step): Promise<StepOutcome> {
  const body = config(step, 'body');
  const sent = await requestNotification(services.app, {
    userId: step.run.ownerId,
    title: text(step, 'title', 200),
    body: typeof body === 'string' ? fillPlaceholders(body, triggerOf(step.run), 2_000) || null : null,
    source: { type: 'automation', id: step.run.automationId },
  }, commandContext(step.run, step.index));
  return { status: 'succeeded', output: { notificationId: sent.notificationId } };
}

export const callDeliveryId = (run: RunDoc, index: number) => deterministicUuid('automation-call', run._id, String(index));

/** The webhook body of the trigger, plus which automation, run and step call. The same bytes on every attempt. */
export const callBody = (run: RunDoc, index: number) =>
  JSON.stringify({ ...triggerOf(run), automation: { id: run.automationId, name: run.automationName, runId: run._id, step: index } });

async function callWebhook(services: StepServices, step: Step): Promise<StepOutcome> {
  const { app } = services;
  const secret = await services.secretOf(step.run.automationId);
  if (!secret) return failed('secret_missing', 'The automation has no signing secret');
  const at = new Date().toISOString();
  const deliveryId = callDeliveryId(step.run, step.index);
  const result: AttemptResult = await sendSigned(
    { url: config(step, 'url') as string, secret, deliveryId, type: triggerOf(step.run).type, body: callBody(step.run, step.index) },
    { timeoutMs: app.config.WEBHOOK_TIMEOUT_MS, allowPrivate: app.config.WEBHOOK_ALLOW_PRIVATE_URLS },
  );
  const attempt: AttemptDoc = { at, status: result.status, responseTimeMs: result.responseTimeMs, error: result.error };
  if (result.ok) return { status: 'succeeded', output: { deliveryId, status: result.status }, attempt };
  const made = step.run.steps[step.index].attempts.length + 1;
  const delay = app.config.WEBHOOK_RETRY_DELAYS_MS[made - 1];
  if (delay === undefined) {
    return { ...failed('webhook_failed', `No 2xx answer after ${made} attempts: ${result.error ?? 'failed'}`), attempt };
  }
  return { status: 'retrying', attempt, nextAttemptMs: Date.now() + delay };
}

const ACTIONS: Record<ActionKind, (services: StepServices, step: Step) => Promise<StepOutcome>> = {
  create_task: createTask,
  create_event: createEvent,
  send_notification: sendNotification,
  call_webhook: callWebhook,
};

/**
 * Runs one step. Refusals of the domain (a time conflict, a limit, a blank title) fail the step; anything else
 * (a store that does not answer) is thrown, and the run is taken up again once its lease has run out.
 */
export async function runStep(services: StepServices, step: Step): Promise<StepOutcome> {
  const kind = step.run.actions[step.index].kind;
  if (!isActionKind(kind)) return failed('unknown_action', `Unknown action kind ${kind}`);
  try {
    return await ACTIONS[kind](services, step);
  } catch (err) {
    if (err instanceof ApiError) return failed(err.code, err.message);
    throw err;
  }
}
