/**
 * The answers of the availability endpoints from a sources port given in memory: routine periods as the routine
 * source hands them over, and what each source is asked for; worked out on this thread and on an answer thread alike.
 */
import { answerThreads, type AnswerThreads } from '../../read-api/availability/answer-threads';
import type { AnswerRequest } from '../../read-api/availability/answers';
import { availabilityAnswer, type AnswerPlace } from '../../read-api/availability/availability.queries';
import type { AvailabilitySources } from '../../read-api/availability/sources';
import { blockOf, instanceOf, type RoutineDayEntry } from '../../read-api/routines/instances';
import type { Routine } from '../../contracts/routines';
import { dayClock } from '../../services/time/local-time';
import type { CalendarEvent, Interval, RoutineBlock } from '../../services/availability/types';
import { DEFAULT_WORKING_HOURS } from '../../services/availability/weekly-hours';
import { ApiError } from '../../services/errors';

const at = (iso: string) => Date.parse(iso);
const short = (iso: string) => iso.slice(0, 16);
const spans = (items: Array<{ startsAt: string; endsAt: string }>) => items.map((i) => `${short(i.startsAt)}/${short(i.endsAt)}`);

const lunch: RoutineBlock = {
  routineId: 'workday', periodId: 'lunch', name: 'Lunch', start: at('2031-03-03T11:00:00Z'), end: at('2031-03-03T12:00:00Z'),
  canMove: false, windowStart: null, windowEnd: null, status: null,
};
const walk: RoutineBlock = {
  routineId: 'workday', periodId: 'walk', name: 'Walk', start: at('2031-03-03T14:00:00Z'), end: at('2031-03-03T14:30:00Z'),
  canMove: true, windowStart: at('2031-03-03T13:00:00Z'), windowEnd: at('2031-03-03T16:00:00Z'), status: null,
};
const review: CalendarEvent = {
  id: 'review', title: 'Design review', kind: 'meeting', allDay: false, busy: true, recurrenceRule: null,
  timeZone: 'Europe/Berlin', startsAt: '2031-03-03T09:00:00Z', endsAt: '2031-03-03T10:00:00Z',
};

function memorySources(userId: string) {
  const asked: Array<[string, Interval]> = [];
  const sources: AvailabilitySources = {
    owner: async (id) => (id === userId ? { timeZone: 'Europe/Berlin', workingHours: DEFAULT_WORKING_HOURS } : null),
    events: async (id, window) => (asked.push(['events', window]), ({ placed: [], events: id === userId ? [review] : [] })),
    routines: async (id, window) => (asked.push(['routines', window]), id === userId ? [lunch, walk] : []),
  };
  return { sources, asked };
}

const inline: AnswerPlace = { threads: null, offloadItems: 0 };
const ask = async (sources: AvailabilitySources, userId: string, req: AnswerRequest, place = inline) =>
  JSON.parse((await availabilityAnswer(sources, place, userId, req)).toString());
const availabilityDays = (sources: AvailabilitySources, userId: string, query: object, now: number) =>
  ask(sources, userId, { kind: 'availability', query, now });
const freeBusy = (sources: AvailabilitySources, userId: string, query: { from: string; to: string }, now: number) =>
  ask(sources, userId, { kind: 'free-busy', query, now });
const availableSlots = (sources: AvailabilitySources, userId: string, query: object, now: number) =>
  ask(sources, userId, { kind: 'slots', query, now });

describe('answers built through the sources port', () => {
  it('/availability lists routine periods, blocks the fixed one with its reason, and leaves the movable one free', async () => {
    const { sources } = memorySources('ada');
    const answer = await availabilityDays(sources, 'ada', { from: '2031-03-03' }, at('2031-01-01T00:00:00Z'));
    const [day] = answer.days;
    expect(day.routinePeriods).toEqual([
      { routineId: 'workday', periodId: 'lunch', name: 'Lunch', startsAt: '2031-03-03T11:00:00.000Z', endsAt: '2031-03-03T12:00:00.000Z', canMove: false, windowStartsAt: null, windowEndsAt: null, status: null, blocking: true },
      { routineId: 'workday', periodId: 'walk', name: 'Walk', startsAt: '2031-03-03T14:00:00.000Z', endsAt: '2031-03-03T14:30:00.000Z', canMove: true, windowStartsAt: '2031-03-03T13:00:00.000Z', windowEndsAt: '2031-03-03T16:00:00.000Z', status: null, blocking: false },
    ]);
    expect(day.blocked.find((b: { startsAt: string }) => b.startsAt === '2031-03-03T11:00:00.000Z')).toEqual({
      startsAt: '2031-03-03T11:00:00.000Z', endsAt: '2031-03-03T12:00:00.000Z', reasons: [{ type: 'routine', routineId: 'workday', periodId: 'lunch' }],
    });
    expect(spans(day.free).sort()).toEqual(['2031-03-03T08:00/2031-03-03T09:00', '2031-03-03T10:00/2031-03-03T11:00', '2031-03-03T12:00/2031-03-03T16:00']);
  });

  it('asks each source for the days widened by two, and free-busy counts the fixed routine period as busy', async () => {
    const { sources, asked } = memorySources('ada');
    const answer = await freeBusy(sources, 'ada', { from: '2031-03-03T00:00:00Z', to: '2031-03-04T00:00:00Z' }, 0);
    expect(spans(answer.busy)).toEqual(['2031-03-03T09:00/2031-03-03T10:00', '2031-03-03T11:00/2031-03-03T12:00']);
    expect(asked).toEqual([
      ['events', { start: at('2031-03-01T00:00:00Z'), end: at('2031-03-06T00:00:00Z') }],
      ['routines', { start: at('2031-03-01T00:00:00Z'), end: at('2031-03-06T00:00:00Z') }],
    ]);
  });

  it('a skipped period frees its time in the slots', async () => {
    const { sources } = memorySources('ada');
    const skipping: AvailabilitySources = { ...sources, routines: async () => [{ ...lunch, status: 'skipped' }] };
    const answer = await availableSlots(skipping, 'ada', { from: '2031-03-03', days: 1 }, 0);
    expect(spans(answer.slots)).toEqual(['2031-03-03T08:00/2031-03-03T09:00', '2031-03-03T10:00/2031-03-03T16:00']);
  });

  it('an unknown owner is 404', async () => {
    const { sources } = memorySources('ada');
    await expect(availableSlots(sources, 'nobody', {}, 0)).rejects.toMatchObject({ status: 404, code: 'not_found' });
    await expect(availableSlots(sources, 'nobody', {}, 0)).rejects.toBeInstanceOf(ApiError);
  });
});

describe('answers worked out on an answer thread', () => {
  let threads: AnswerThreads | null;
  beforeAll(() => {
    threads = answerThreads(1);
  });
  afterAll(() => threads?.close());

  const requests: AnswerRequest[] = [
    { kind: 'availability', query: { from: '2031-03-03', days: 3, purpose: 'focus' }, now: 0 },
    { kind: 'slots', query: { from: '2031-03-03', days: 2, minimumMinutes: 15 }, now: 0 },
    { kind: 'free-busy', query: { from: '2031-03-03T00:00:00Z', to: '2031-03-04T00:00:00Z' }, now: 0 },
  ];

  it.each(requests.map((r) => [r.kind, r] as const))('%s: the same answer as on this thread', async (_kind, req) => {
    if (!threads) throw new Error('the answer worker is not built (dist/read-api/availability/answer-worker.js): run npm run build');
    const { sources } = memorySources('ada');
    const offloaded = await ask(sources, 'ada', req, { threads, offloadItems: 0 });
    expect(offloaded).toEqual(await ask(sources, 'ada', req));
  });

  it('routine conflicts: the same answer as on this thread, the suggestion clear of the event', async () => {
    if (!threads) throw new Error('the answer worker is not built (dist/read-api/availability/answer-worker.js): run npm run build');
    const { sources } = memorySources('ada');
    const routine: Routine = {
      id: 'workday', name: 'Workday', type: 'work', color: null, isActive: true, days: [1], ownerId: 'ada',
      createdAt: '2031-01-01T00:00:00Z', updatedAt: '2031-01-01T00:00:00Z',
      periods: [{ id: 'prep', name: 'Prep', startMinute: 600, endMinute: 630, items: [], windowStartMinute: 540, windowEndMinute: 780, priority: 'normal', canMove: true }],
    };
    const clock = dayClock('2031-03-03', 'Europe/Berlin');
    const instance = instanceOf(routine, routine.periods[0], '2031-03-03', undefined, clock);
    const entries: RoutineDayEntry[] = [{ instance, block: blockOf(instance, clock) }];
    const req: AnswerRequest = { kind: 'routine-conflicts', query: { from: '2031-03-03', days: 1 }, now: 0, entries };
    const here = await ask(sources, 'ada', req);
    expect(here.conflicts.map((c: { periodId: string; events: Array<{ id: string }> }) => [c.periodId, c.events.map((e) => e.id)])).toEqual([['prep', ['review']]]);
    expect(here.conflicts[0].suggestion).toMatchObject({ startsAt: '2031-03-03T08:30:00.000Z', endsAt: '2031-03-03T09:00:00.000Z' });
    expect(await ask(sources, 'ada', req, { threads, offloadItems: 0 })).toEqual(here);
  });

  it('passes on the engine\'s refusal as the same error', async () => {
    if (!threads) throw new Error('the answer worker is not built (dist/read-api/availability/answer-worker.js): run npm run build');
    const { sources } = memorySources('ada');
    const tooLong: AnswerRequest = { kind: 'free-busy', query: { from: '2031-03-03T00:00:00Z', to: '2032-06-04T00:00:00Z' }, now: 0 };
    const refusal = { status: 400, code: 'invalid_request' };
    await expect(ask(sources, 'ada', tooLong)).rejects.toMatchObject(refusal);
    const offloaded = ask(sources, 'ada', tooLong, { threads, offloadItems: 0 });
    await expect(offloaded).rejects.toBeInstanceOf(ApiError);
    await expect(offloaded).rejects.toMatchObject(refusal);
  });

  it('keeps small answers on this thread', async () => {
    const { sources } = memorySources('ada');
    const never: AnswerThreads = { answer: () => Promise.reject(new Error('offloaded')), close: async () => undefined };
    await expect(ask(sources, 'ada', requests[0], { threads: never, offloadItems: 1000 })).resolves.toBeDefined();
    await expect(ask(sources, 'ada', requests[0], { threads: never, offloadItems: 1 })).rejects.toThrow('offloaded');
  });
});
