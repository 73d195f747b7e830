/**
 * The answers of POST /free-busy and POST /meeting-suggestions from people's engine inputs (read-api/scheduling/
 * answers.ts): each person's busy time and working hours in their own zone, someone unknown as not_shared, and the
 * same answer when worked out on an answer thread.
 */
import { answerThreads, type AnswerThreads } from '../../read-api/availability/answer-threads';
import { schedulingAnswerOf, type PeopleInputs, type SchedulingRequest } from '../../read-api/scheduling/answers';
import type { PlacedEvent } from '../../services/availability/types';
import { DEFAULT_WORKING_HOURS } from '../../services/availability/weekly-hours';

const placed = (id: string, startsAt: string, endsAt: string): PlacedEvent => ({
  id, kind: 'meeting', allDay: false, busy: true, title: 'Private title', timeZone: 'UTC', startsAt, endsAt, recurrenceRule: null,
  start: Date.parse(startsAt), end: Date.parse(endsAt),
});

// Monday 3 March 2031: Berlin (UTC+1) works 08:00-16:00Z, New York (UTC-5) 14:00-22:00Z.
const people: PeopleInputs = {
  people: [
    {
      id: 'ada', email: 'ada@example.com',
      inputs: {
        owner: { timeZone: 'Europe/Berlin', workingHours: DEFAULT_WORKING_HOURS }, routines: [],
        events: { placed: [placed('a1', '2031-03-03T14:00:00Z', '2031-03-03T15:00:00Z'), placed('a2', '2031-03-03T14:30:00Z', '2031-03-03T15:30:00Z')], events: [] },
      },
    },
    {
      id: 'bob', email: 'bob@example.com',
      inputs: { owner: { timeZone: 'America/New_York', workingHours: DEFAULT_WORKING_HOURS }, routines: [], events: { placed: [], events: [] } },
    },
    { id: null, email: 'nobody@example.com', inputs: null },
  ],
};
const range = { from: '2031-03-03T00:00:00Z', to: '2031-03-04T00:00:00Z' };
const freeBusy: SchedulingRequest = { kind: 'free-busy-people', body: { ...range, people: ['ada@example.com', 'bob', 'nobody@example.com'] }, now: 0 };
const suggestions: SchedulingRequest = {
  kind: 'meeting-suggestions', body: { ...range, attendees: ['ada@example.com', 'bob'], durationMinutes: 30 }, now: 0,
};
const twoOfThree: SchedulingRequest = { ...suggestions, body: { ...suggestions.body, minimumAttendeePercentage: 60 } } as SchedulingRequest;

describe('scheduling answers', () => {
  it('free/busy: merged busy time per person, not_shared with nothing else for someone unknown', () => {
    expect(schedulingAnswerOf(freeBusy, people)).toEqual({
      from: '2031-03-03T00:00:00.000Z', to: '2031-03-04T00:00:00.000Z',
      people: [
        { id: 'ada', email: 'ada@example.com', busy: [{ startsAt: '2031-03-03T14:00:00.000Z', endsAt: '2031-03-03T15:30:00.000Z' }] },
        { id: 'bob', email: 'bob@example.com', busy: [] },
        { id: null, email: 'nobody@example.com', busy: [], error: 'not_shared' },
      ],
    });
  });

  it('suggestions: where both work and are free, each in their zone', () => {
    const two = { people: people.people.slice(0, 2) };
    const answer = schedulingAnswerOf(suggestions, two) as { suggestions: Array<{ startsAt: string; confidence: number }> };
    expect(answer.suggestions.map((s) => s.startsAt)).toEqual(['2031-03-03T15:30:00.000Z']);
    expect(answer).not.toHaveProperty('emptySuggestionsReason');
    const three = schedulingAnswerOf(twoOfThree, people) as { suggestions: Array<{ startsAt: string; confidence: number; attendees: unknown[] }> };
    expect(three.suggestions[0]).toMatchObject({ startsAt: '2031-03-03T15:30:00.000Z', confidence: 66.67 });
    expect(three.suggestions[0].attendees).toEqual([
      { id: 'ada', email: 'ada@example.com', free: true }, { id: 'bob', email: 'bob@example.com', free: true },
      { id: null, email: 'nobody@example.com', free: false, error: 'not_shared' },
    ]);
    expect(JSON.stringify([answer, three])).not.toContain('Private title');
  });

  describe('on an answer thread', () => {
    let threads: AnswerThreads | null;
    beforeAll(() => {
      threads = answerThreads(1);
    });
    afterAll(() => threads?.close());

    it.each([freeBusy, suggestions, twoOfThree].map((r, i) => [i, r] as const))('request %i: the same answer as on this thread', async (_i, req) => {
      if (!threads) throw new Error('the answer worker is not built (dist/read-api/availability/answer-worker.js): run npm run build');
      const json = await threads.answer({ of: 'people', req, inputs: people });
      expect(JSON.parse(json.toString())).toEqual(schedulingAnswerOf(req, people));
    });
  });
});
