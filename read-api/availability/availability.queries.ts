/**
 * The three availability answers: their inputs gathered through the sources port, then worked out by the engine
 * (answers.ts) on this thread, or on an answer thread when the calendar is large (answer-threads.ts).
 */
import { availabilityOf, inputWindow, type Availability } from '../../services/availability/engine';
import { expansionEstimate } from '../../services/availability/busy';
import type { Interval, Rules } from '../../services/availability/types';
import { notFound } from '../../services/errors';
import { answerOf, windowOf, type AnswerRequest, type EngineInputs, type Owner } from './answers';
import type { AnswerThreads } from './answer-threads';
import type { AvailabilitySources } from './sources';

async function ownerOf(sources: AvailabilitySources, userId: string): Promise<Owner> {
  const owner = await sources.owner(userId);
  if (!owner) throw notFound('User');
  return owner;
}

/** What the engine reads over `window`. */
async function inputsFor(sources: AvailabilitySources, userId: string, owner: Owner, window: Interval): Promise<EngineInputs> {
  const [events, routines] = await Promise.all([sources.events(userId, window), sources.routines(userId, window)]);
  return { owner, events, routines };
}

/** Reads what the engine needs for `range` and runs it. */
export async function computeFor(sources: AvailabilitySources, userId: string, owner: Owner, range: Interval, rules: Rules): Promise<Availability> {
  const { events, routines } = await inputsFor(sources, userId, owner, inputWindow(range, rules));
  return availabilityOf({ range, timeZone: owner.timeZone, events, routines, rules });
}

/** Where answers are worked out: answer threads, for inputs of at least `offloadItems` items (events and occurrences). */
export interface AnswerPlace {
  threads: AnswerThreads | null;
  offloadItems: number;
}

/** The answer's body as JSON, worked out on an answer thread when its inputs are large and there is one. */
export async function availabilityAnswer(sources: AvailabilitySources, place: AnswerPlace, userId: string, req: AnswerRequest): Promise<Buffer> {
  const owner = await ownerOf(sources, userId);
  const window = windowOf(req, owner);
  const inputs = await inputsFor(sources, userId, owner, window);
  const items = inputs.events.placed.length + inputs.routines.length + expansionEstimate(inputs.events.events, window);
  if (place.threads && items >= place.offloadItems) return place.threads.answer({ of: 'person', req, inputs });
  return Buffer.from(JSON.stringify(answerOf(req, inputs)));
}
