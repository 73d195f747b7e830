/**
 * The built-in assistant's grammar, table by table: what each request is read as, and what it becomes in the
 * person's zone (Asia/Tokyo) while the process runs in another (jest runs with TZ=America/New_York).
 */
import { DEFAULT_ASSISTANT_PREFERENCES } from '../../contracts/assistant';
import type { Event } from '../../contracts/events';
import { worldOver } from '../../read-api/assistant/world';
import { overlaps } from '../../services/availability/intervals';
import { epochAt } from '../../services/assistant/calendar-time';
import { builtinAnswer } from '../../services/assistant/builtin';
import { parseRequest, type Request } from '../../services/assistant/language/grammar';
import { tokenize } from '../../services/assistant/language/tokens';
import type { DueTask } from '../../services/assistant/world';

const weekday = (day: number, includeToday = false) => ({ kind: 'weekday', weekday: day, includeToday });
const offset = (days: number) => ({ kind: 'offset', days });
const at = (minute: number, bare = false) => ({ minute, bare });

describe('reading requests', () => {
  const table: Array<[string, Record<string, unknown> & { intent: Request['intent'] }]> = [
    ['schedule 45 minutes of focus tomorrow morning', { intent: 'schedule', title: 'Focus', focus: true, minutes: 45, day: offset(1), period: 'morning', time: null }],
    ['Schedule forty-five minutes of focus tmrw morning', { intent: 'schedule', minutes: 45, day: offset(1), period: 'morning' }],
    ['focus for 45 min tmrw', { intent: 'schedule', title: 'Focus', focus: true, minutes: 45, day: offset(1), period: null }],
    ['block an hour for deep work this afternoon', { intent: 'schedule', title: 'Deep work', focus: true, minutes: 60, day: offset(0), period: 'afternoon' }],
    ['please book one and a half hours of focus on wednesday', { intent: 'schedule', minutes: 90, day: weekday(3) }],
    ['plan an hour and a half of focus', { intent: 'schedule', minutes: 90, day: null }],
    ['schedule half an hour of focus this friday', { intent: 'schedule', minutes: 30, day: weekday(5, true) }],
    ['schedule 1h 30m focus next monday', { intent: 'schedule', minutes: 90, day: weekday(1) }],
    ['schedule a 90 minute focus block the day after tomorrow', { intent: 'schedule', minutes: 90, day: offset(2), title: 'Focus' }],
    ['schedule lunch with Ana on friday at 1pm for an hour', { intent: 'schedule', title: 'Lunch with Ana', focus: false, minutes: 60, day: weekday(5), time: at(780) }],
    ['schedule a meeting from 2 to 3:30pm next tuesday', { intent: 'schedule', title: 'Meeting', minutes: 90, day: weekday(2), time: at(840) }],
    ['set up a call with the bank at 9 tomorrow', { intent: 'schedule', title: 'Call with the bank', time: at(540, true), day: offset(1) }],
    ['book a review at 15:00 in 3 days', { intent: 'schedule', title: 'Review', time: at(900), day: offset(3) }],
    ['schedule gym at 7 in the evening', { intent: 'schedule', title: 'Gym', time: at(1140, true), period: 'evening' }],
    ['schedule yoga tonight', { intent: 'schedule', title: 'Yoga', day: offset(0), period: 'evening' }],
    ['move my 3pm to Friday', { intent: 'move', source: { time: at(900), day: null, words: [] }, day: weekday(5), time: null }],
    ['move my 3 pm meeting to fri', { intent: 'move', source: { time: at(900), day: null, words: [] }, day: weekday(5) }],
    ['push my 15:00 to 4', { intent: 'move', source: { time: at(900), day: null, words: [] }, day: null, time: at(960, true) }],
    ["reschedule tomorrow's 10:30am for next monday at noon", { intent: 'move', source: { time: at(630), day: offset(1), words: [] }, day: weekday(1), time: at(720) }],
    ['move the design review to thursday', { intent: 'move', source: { time: null, day: null, words: ['design', 'review'] }, day: weekday(4) }],
    ['move my 3pm', { intent: 'move', day: null, time: null }],
    ['when am I free this week', { intent: 'free', week: 'this_week', day: null, minutes: null }],
    ['when am i free for 2 hours next week?', { intent: 'free', week: 'next_week', minutes: 120 }],
    ['what is my availability tomorrow', { intent: 'free', day: offset(1) }],
    ['do I have free time this weekend', { intent: 'free', week: 'weekend' }],
    ['add a task to call Ana by Monday', { intent: 'task', title: 'Call Ana', dueDay: weekday(1), dueTime: null }],
    ['remind me to pay rent tomorrow at 9am', { intent: 'task', title: 'Pay rent', dueDay: offset(1), dueTime: at(540) }],
    ['add buy milk to my todo list by friday', { intent: 'task', title: 'Buy milk', dueDay: weekday(5) }],
    ['new task: renew passport', { intent: 'task', title: 'Renew passport', dueDay: null }],
    ['create a task called Send the Q3 report due thursday at 5pm', { intent: 'task', title: 'Send the Q3 report', dueDay: weekday(4), dueTime: at(1020) }],
    ['add a task', { intent: 'task', title: '' }],
    ['summarize my day', { intent: 'summary', day: null }],
    ["what's on tomorrow", { intent: 'summary', day: offset(1) }],
    ['give me a summary of friday', { intent: 'summary', day: weekday(5) }],
    ['how does my day look', { intent: 'summary', day: null }],
    ['summarize my tasks for today', { intent: 'summary', day: offset(0) }],
    ['add milk to my tasks', { intent: 'task', title: 'Milk' }],
    ['hello', { intent: 'help' }],
    ['Hello! schedule focus tomorrow', { intent: 'schedule', title: 'Focus', day: offset(1) }],
    ['thank you', { intent: 'help' }],
    ['what can you do?', { intent: 'help' }],
    ['purple elephants', { intent: 'unknown' }],
    ['', { intent: 'help' }],
  ];

  it.each(table)('%s', (text, expected) => {
    expect(parseRequest(text)).toMatchObject(expected);
  });

  it('tokenizes clock times, numbers glued to units and a.m./p.m.', () => {
    expect(tokenize('Call at 3p.m. for 45min, then 15:30 & 1.5h').map((t) => [t.kind, t.text])).toEqual([
      ['word', 'call'], ['word', 'at'], ['number', '3'], ['word', 'pm'], ['word', 'for'], ['number', '45'], ['word', 'min'],
      ['punct', ','], ['word', 'then'], ['clock', '15:30'], ['punct', '&'], ['number', '1.5'], ['word', 'h'],
    ]);
  });
});

describe('answers in the person\'s zone, whatever the process zone', () => {
  const TZ = 'Asia/Tokyo';
  // Friday 2026-03-06 15:00 in New York (the process) is already Saturday 2026-03-07 05:00 in Tokyo.
  const NOW = Date.parse('2026-03-06T20:00:00Z');
  const tokyo = (date: string, minute: number) => new Date(epochAt(date, minute, TZ)).toISOString();
  const event = (id: string, title: string, date: string, startMinute: number, minutes: number, extra: Partial<Event> = {}) => ({
    id, title, kind: 'meeting', allDay: false, busy: true, timeZone: TZ, recurrenceRule: null,
    startsAt: tokyo(date, startMinute), endsAt: tokyo(date, startMinute + minutes), ...extra,
  });
  const EVENTS = [
    event('00000000-0000-4000-8000-00000000000a', 'Design review', '2026-03-07', 900, 60),
    event('00000000-0000-4000-8000-00000000000b', 'Breakfast', '2026-03-08', 540, 60),
    event('00000000-0000-4000-8000-00000000000c', 'Busy Friday', '2026-03-13', 840, 120),
  ];
  const TASKS: DueTask[] = [{ id: '00000000-0000-4000-8000-0000000000d1', title: 'Pay rent', dueAt: tokyo('2026-03-07', 1200) }];
  const world = worldOver(
    'u', { timeZone: TZ, workingHours: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, startMinute: 540, endMinute: 1020 })), weekStartsOn: 1 },
    { owner: async () => null, events: async () => ({ placed: [], events: EVENTS }), routines: async () => [] },
    {
      event: async (id) => {
        const e = EVENTS.find((x) => x.id === id);
        return e ? { id: e.id, title: e.title, kind: e.kind, start: Date.parse(e.startsAt), end: Date.parse(e.endsAt), allDay: false, busy: true, recurring: false } : null;
      },
      tasksDue: async (range) => TASKS.filter((t) => overlaps({ start: Date.parse(t.dueAt), end: Date.parse(t.dueAt) + 1 }, range)),
    },
    NOW, DEFAULT_ASSISTANT_PREFERENCES,
  );

  const proposals: Array<[string, Record<string, unknown>]> = [
    // Tomorrow is Sunday 8 March in Tokyo; breakfast takes 09:00-10:00.
    ['schedule 45 minutes of focus tomorrow morning', { kind: 'create_event', eventKind: 'focus', startsAt: tokyo('2026-03-08', 600), endsAt: tokyo('2026-03-08', 645) }],
    ['focus tmrw', { eventKind: 'focus', startsAt: tokyo('2026-03-08', 600), endsAt: tokyo('2026-03-08', 660) }],
    ['schedule 2 hours of focus this afternoon', { startsAt: tokyo('2026-03-07', 720), endsAt: tokyo('2026-03-07', 840) }],
    ['schedule a call at 7pm on monday', { title: 'Call', eventKind: 'meeting', startsAt: tokyo('2026-03-09', 1140), endsAt: tokyo('2026-03-09', 1170) }],
    ['move my 3pm to Tuesday', { kind: 'move_event', eventId: EVENTS[0].id, startsAt: tokyo('2026-03-10', 900), endsAt: tokyo('2026-03-10', 960) }],
    // Friday 13 March 15:00 is taken 14:00-16:00: the nearest hour is 16:00.
    ['move my 3pm to Friday', { kind: 'move_event', startsAt: tokyo('2026-03-13', 960), endsAt: tokyo('2026-03-13', 1020) }],
    ['move the design review to 5pm', { kind: 'move_event', startsAt: tokyo('2026-03-07', 1020) }],
    ['add a task to call Ana by Monday', { kind: 'create_task', title: 'Call Ana', dueAt: new Date(epochAt('2026-03-10', 0, TZ) - 1000).toISOString() }],
    ['remind me to water plants today at 6pm', { kind: 'create_task', title: 'Water plants', dueAt: tokyo('2026-03-07', 1080) }],
  ];

  it.each(proposals)('%s', async (text, expected) => {
    const answer = await builtinAnswer(text, world);
    expect(answer.suggestions).toHaveLength(1);
    expect(answer.suggestions[0].proposal).toMatchObject(expected);
  });

  it.each([
    ['summarize my day', ['Sat 7 Mar (today):', '1 event: 15:00-16:00 Design review.', 'Tasks due: Pay rent.', '7 hours free']],
    ["what's on tomorrow", ['Sun 8 Mar:', '09:00-10:00 Breakfast', 'No tasks due.']],
    ['when am I free on friday', ['Fri 13 Mar: 09:00-14:00, 16:00-17:00']],
    ['when am I free this week', ['Sat 7 Mar: 09:00-15:00, 16:00-17:00', 'Sun 8 Mar: 10:00-17:00']],
    ['when am I free next week', ['Mon 9 Mar: 09:00-17:00', 'Sun 15 Mar: 09:00-17:00']],
    ['move my 4pm to friday', ['no event at 16:00']],
    ['gibberish words here', ['did not understand']],
  ])('%s', async (text, fragments) => {
    const answer = await builtinAnswer(text, world);
    expect(answer.suggestions).toEqual([]);
    for (const fragment of fragments) expect(answer.text).toContain(fragment);
  });
});
