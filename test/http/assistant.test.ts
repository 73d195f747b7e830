/**
 * The built-in assistant over real HTTP, from a plain request to a confirmed change in the calendar: focus time,
 * moving an event, free time, tasks, a day's summary; decided once; conflicts leave a suggestion pending.
 */
import { expectError, expectNotFound } from '../support/api-expect';
import { assistantUser, createEvent, decide, iso, nextWeekday, say, type AssistantUser } from '../support/assistant';
import pino from 'pino';
import { carryOut } from '../../write-api/assistant/carry-out';
import { appendDomainEvent, usePlanningService } from '../support/planning';

const api = usePlanningService();

const eventsOn = async (c: AssistantUser, date: string) =>
  (await c.call('GET', `/events?from=${iso(c.at(date, 0))}&to=${iso(c.at(date, 1440))}`)).body.events as Array<Record<string, any>>;

describe('schedule focus', () => {
  it('proposes focus in the first free morning stretch tomorrow, and confirming puts it in the calendar', async () => {
    const c = await assistantUser(api.base);
    const tomorrow = c.day(1);
    await createEvent(c, 'Standup', c.at(tomorrow, 480), 60); // 08:00-09:00 is taken
    const res = await say(c, 'schedule 45 minutes of focus tomorrow morning');
    expect(res.body.message).toMatchObject({ role: 'user', text: 'schedule 45 minutes of focus tomorrow morning', surface: 'mobile', source: null });
    const reply = res.body.reply;
    expect(reply).toMatchObject({ role: 'assistant', surface: 'mobile', source: 'builtin', quickActions: [] });
    expect(reply.suggestions).toHaveLength(1);
    const [suggestion] = reply.suggestions;
    expect(suggestion).toMatchObject({
      status: 'pending', result: null, decidedAt: null, messageId: reply.id, conversationId: res.body.conversation.id,
      proposal: { kind: 'create_event', title: 'Focus', eventKind: 'focus', startsAt: iso(c.at(tomorrow, 540)), endsAt: iso(c.at(tomorrow, 585)), timeZone: c.zone },
    });
    expect(reply.text).toContain('09:00-09:45');
    expect((await eventsOn(c, tomorrow)).map((e) => e.title)).toEqual(['Standup']);

    const confirmed = await decide(c, suggestion.id, 'confirm');
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.suggestion).toMatchObject({ id: suggestion.id, status: 'confirmed', result: { type: 'event', id: confirmed.body.event.id } });
    expect(confirmed.body.task).toBeNull();
    const events = await eventsOn(c, tomorrow);
    expect(events.map((e) => [e.title, e.kind, e.startsAt, e.endsAt])).toEqual([
      ['Standup', 'meeting', iso(c.at(tomorrow, 480)), iso(c.at(tomorrow, 540))],
      ['Focus', 'focus', iso(c.at(tomorrow, 540)), iso(c.at(tomorrow, 585))],
    ]);

    expectError(await decide(c, suggestion.id, 'confirm'), 409, 'suggestion_already_decided');
    expectError(await decide(c, suggestion.id, 'cancel'), 409, 'suggestion_already_decided');
    expect(await eventsOn(c, tomorrow)).toHaveLength(2);
    const detail = await c.call('GET', `/assistant/conversations/${res.body.conversation.id}`);
    expect(detail.body.messages[1].suggestions[0]).toMatchObject({ status: 'confirmed', result: { type: 'event' } });
  });

  it('honours the preferences: focus length and part of the day when the request names none', async () => {
    const c = await assistantUser(api.base);
    expect((await c.call('PATCH', '/assistant/preferences', { focusPeriod: 'afternoon', focusMinutes: 30 })).status).toBe(200);
    const tomorrow = c.day(1);
    const { proposal } = (await say(c, 'focus tmrw')).body.reply.suggestions[0];
    expect(proposal).toMatchObject({ eventKind: 'focus', startsAt: iso(c.at(tomorrow, 720)), endsAt: iso(c.at(tomorrow, 750)) });
  });

  it('schedules a named event at the time asked, and offers the nearest free time when that is taken', async () => {
    const c = await assistantUser(api.base);
    const friday = nextWeekday(c.today, 5);
    const first = (await say(c, 'schedule lunch with Ana on friday at 1pm for an hour')).body.reply.suggestions[0];
    expect(first.proposal).toMatchObject({ title: 'Lunch with Ana', eventKind: 'meeting', startsAt: iso(c.at(friday, 780)), endsAt: iso(c.at(friday, 840)) });
    await createEvent(c, 'Dentist', c.at(friday, 750), 90); // 12:30-14:00: 14:00 is nearer to 13:00 than 11:30
    const second = (await say(c, 'schedule lunch with Ana on friday at 1pm for an hour')).body.reply;
    expect(second.text).toContain('taken by Dentist');
    expect(second.suggestions[0].proposal).toMatchObject({ startsAt: iso(c.at(friday, 840)), endsAt: iso(c.at(friday, 900)) });
  });

  it('a conflict at confirmation is 409 time_conflict and the suggestion stays pending; it can still be cancelled', async () => {
    const c = await assistantUser(api.base);
    const tomorrow = c.day(1);
    const { id } = (await say(c, 'block 2 hours for deep work tomorrow afternoon')).body.reply.suggestions[0];
    await createEvent(c, 'Late booking', c.at(tomorrow, 720), 30);
    expectError(await decide(c, id, 'confirm'), 409, 'time_conflict');
    const history = await c.call('GET', '/assistant/conversations');
    const detail = await c.call('GET', `/assistant/conversations/${history.body.conversations[0].id}`);
    expect(detail.body.messages[1].suggestions[0]).toMatchObject({ id, status: 'pending' });
    expect((await eventsOn(c, tomorrow)).map((e) => e.title)).toEqual(['Late booking']);
    const cancelled = await decide(c, id, 'cancel');
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ suggestion: { id, status: 'cancelled', result: null }, event: null, task: null });
    expectError(await decide(c, id, 'confirm'), 409, 'suggestion_already_decided');
  });

  it('confirms a suggestion once when two confirmations race', async () => {
    const c = await assistantUser(api.base);
    const { id } = (await say(c, 'schedule 30 minutes of focus tomorrow morning')).body.reply.suggestions[0];
    const answers = await Promise.all([decide(c, id, 'confirm'), decide(c, id, 'confirm'), decide(c, id, 'cancel')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    expect((await eventsOn(c, c.day(1))).filter((e) => e.kind === 'focus')).toHaveLength(answers.some((a) => a.body.event) ? 1 : 0);
  });
});

describe('confirming after a crash', () => {
  it('takes over a claim left by a process that died once it is a minute old', async () => {
    const c = await assistantUser(api.base);
    const { id } = (await say(c, 'add a task to test recovery')).body.reply.suggestions[0];
    const claim = (ageMs: number) => appendDomainEvent(api.svc, 'assistant.suggestion.confirming', { suggestionId: id, userId: c.userId, at: iso(Date.now() - ageMs) }, c.userId, `suggestion-${id}`);
    await claim(10_000);
    expectError(await decide(c, id, 'confirm'), 409, 'suggestion_already_decided');
    expectError(await decide(c, id, 'cancel'), 409, 'suggestion_already_decided');
    await claim(120_000);
    const confirmed = await decide(c, id, 'confirm');
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.task).toMatchObject({ title: 'Test recovery' });
  });

  it('carries a suggestion out once however often it is tried (the change\'s ids derive from the suggestion)', async () => {
    const c = await assistantUser(api.base);
    const perform = carryOut(api.svc.service.context);
    const input = {
      principal: { userId: c.userId, kind: 'session' as const, credentialId: 'test', scopes: 'all' as const, environment: 'live' as const },
      body: undefined, query: undefined, params: undefined, requestId: 'test', commandId: 'unused', ip: '127.0.0.1', issuer: 'http://127.0.0.1',
      header: () => undefined, rawBody: undefined, log: pino({ level: 'silent' }),
    };
    const suggestionId = '0b1c2d3e-4f50-4a61-8b72-9c8d7e6f5a4b';
    const start = c.at(c.day(1), 600);
    const event = { kind: 'create_event' as const, title: 'Once', eventKind: 'meeting' as const, startsAt: iso(start), endsAt: iso(start + 1_800_000), timeZone: c.zone };
    const first = await perform(event, suggestionId, input);
    const again = await perform(event, suggestionId, input);
    expect(again.result).toEqual(first.result);
    expect(again.event).toMatchObject({ id: first.event!.id, title: 'Once' });
    expect((await eventsOn(c, c.day(1))).map((e) => e.title)).toEqual(['Once']);
    const task = { kind: 'create_task' as const, title: 'Only once', dueAt: null };
    const [one, two] = [await perform(task, suggestionId, input), await perform(task, suggestionId, input)];
    expect(two.task).toMatchObject({ id: one.task!.id, title: 'Only once' });
    expect((await c.call('GET', '/tasks')).body.tasks).toHaveLength(1);
  });
});

describe('move an event', () => {
  it('moves my 3pm to Friday at the same time once confirmed', async () => {
    const c = await assistantUser(api.base);
    const friday = nextWeekday(c.today, 5);
    const event = await createEvent(c, 'Design review', c.at(c.today, 900), 60);
    const reply = (await say(c, 'move my 3pm to Friday')).body.reply;
    expect(reply.suggestions[0].proposal).toEqual({
      kind: 'move_event', eventId: event.id, title: 'Design review',
      from: { startsAt: event.startsAt, endsAt: event.endsAt }, startsAt: iso(c.at(friday, 900)), endsAt: iso(c.at(friday, 960)),
    });
    const confirmed = await decide(c, reply.suggestions[0].id, 'confirm');
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.event).toMatchObject({ id: event.id, startsAt: iso(c.at(friday, 900)), version: 2 });
    expect((await eventsOn(c, friday)).map((e) => [e.id, e.startsAt])).toEqual([[event.id, iso(c.at(friday, 900))]]);
    expect(await eventsOn(c, c.today)).toEqual([]);
  });

  it('finds the next 3pm when today has none, and proposes the nearest free time when Friday 3pm is taken', async () => {
    const c = await assistantUser(api.base);
    const friday = nextWeekday(c.today, 5);
    const day = c.day(2) === friday ? c.day(3) : c.day(2);
    const event = await createEvent(c, 'Planning', c.at(day, 900), 30);
    await createEvent(c, 'Busy Friday', c.at(friday, 840), 120); // 14:00-16:00
    const reply = (await say(c, 'please move my 3 pm to fri')).body.reply;
    expect(reply.text).toContain('taken by Busy Friday');
    expect(reply.suggestions[0].proposal).toMatchObject({ eventId: event.id, startsAt: iso(c.at(friday, 960)), endsAt: iso(c.at(friday, 990)) });
  });

  it('says so when there is no such event, and refuses repeating events', async () => {
    const c = await assistantUser(api.base);
    const none = (await say(c, 'move my 3pm to Friday')).body.reply;
    expect(none.suggestions).toEqual([]);
    expect(none.text).toContain('no event at 15:00');
    await createEvent(c, 'Weekly sync', c.at(c.today, 900), 30, { recurrenceRule: 'FREQ=WEEKLY' });
    const repeating = (await say(c, 'move my 3pm to Friday')).body.reply;
    expect(repeating.suggestions).toEqual([]);
    expect(repeating.text).toContain('Weekly sync repeats');
  });
});

describe('free time, tasks, summaries', () => {
  it('lists free stretches without suggesting anything', async () => {
    const c = await assistantUser(api.base);
    const tomorrow = c.day(1);
    await createEvent(c, 'Workshop', c.at(tomorrow, 600), 60);
    const day = (await say(c, 'when am I free tomorrow')).body.reply;
    expect(day.suggestions).toEqual([]);
    expect(day.text).toContain('08:00-10:00, 11:00-20:00');
    const week = (await say(c, 'when am I free next week')).body.reply;
    const lines: string[] = week.text.split('\n').slice(1);
    expect(lines).toHaveLength(7);
    // On a Sunday, next week begins tomorrow, with the workshop in it.
    const sunday = new Date(`${c.today}T00:00:00Z`).getUTCDay() === 0;
    expect(lines.filter((line) => line.endsWith('08:00-10:00, 11:00-20:00'))).toHaveLength(sunday ? 1 : 0);
    expect(lines.filter((line) => line.endsWith(' 08:00-20:00'))).toHaveLength(sunday ? 6 : 7);
  });

  it('adds a task due next Monday at the end of the day in the person\'s zone once confirmed', async () => {
    const c = await assistantUser(api.base);
    const monday = nextWeekday(c.today, 1);
    const reply = (await say(c, 'add a task to call Ana by Monday')).body.reply;
    const dueAt = iso(c.at(monday, 1440) - 1000);
    expect(reply.suggestions[0].proposal).toEqual({ kind: 'create_task', title: 'Call Ana', dueAt });
    const confirmed = await decide(c, reply.suggestions[0].id, 'confirm');
    expect(confirmed.body).toMatchObject({ event: null, task: { title: 'Call Ana', dueAt, status: 'open' }, suggestion: { result: { type: 'task' } } });
    const tasks = (await c.call('GET', '/tasks')).body.tasks;
    expect(tasks.map((t: Record<string, unknown>) => [t.id, t.title, t.dueAt])).toEqual([[confirmed.body.task.id, 'Call Ana', dueAt]]);
  });

  it('summarizes the day: events and tasks due, as text', async () => {
    const c = await assistantUser(api.base);
    await createEvent(c, 'Breakfast', c.at(c.today, 60), 30);
    await createEvent(c, 'Yesterday late', c.at(c.day(-1), 1380), 30);
    const task = await c.call('POST', '/tasks', { title: 'Send invoice', dueAt: iso(c.at(c.today, 1200)) });
    expect(task.status).toBe(201);
    await c.call('POST', '/tasks', { title: 'Later thing', dueAt: iso(c.at(c.day(3), 600)) });
    const reply = (await say(c, 'summarize my day')).body.reply;
    expect(reply.suggestions).toEqual([]);
    expect(reply.text).toContain('1 event: 01:00-01:30 Breakfast.');
    expect(reply.text).toContain('Tasks due: Send invoice.');
    expect(reply.text).not.toContain('Later thing');
    expect(reply.text).not.toContain('Yesterday late');
  });

  it('answers what it does not understand with help and the quick actions; a quick action is a request', async () => {
    const c = await assistantUser(api.base);
    const reply = (await say(c, 'purple elephants dancing')).body.reply;
    expect(reply.suggestions).toEqual([]);
    expect(reply.text).toMatch(/did not understand/);
    expect(reply.quickActions.map((a: { id: string }) => a.id)).toEqual(['plan_focus', 'free_this_week', 'summarize_day', 'add_task']);
    const action = await c.call('POST', '/assistant/messages', { action: 'summarize_day' });
    expect(action.status).toBe(200);
    expect(action.body.message).toMatchObject({ text: 'summarize my day', action: 'summarize_day' });
    expect(action.body.reply.text).toContain('(today): no events.');
  });
});

describe('isolation', () => {
  it('nobody decides, sees or rates another person\'s suggestions and conversations', async () => {
    const [a, b] = [await assistantUser(api.base), await assistantUser(api.base)];
    const res = await say(a, 'add a task to water the plants tomorrow');
    const suggestion = res.body.reply.suggestions[0];
    expectNotFound(await decide(b, suggestion.id, 'confirm'));
    expectNotFound(await decide(b, suggestion.id, 'cancel'));
    expectNotFound(await b.call('GET', `/assistant/conversations/${res.body.conversation.id}`));
    expectNotFound(await b.call('DELETE', `/assistant/conversations/${res.body.conversation.id}`));
    expectNotFound(await b.call('POST', '/assistant/messages', { conversationId: res.body.conversation.id, text: 'hello' }));
    expectNotFound(await b.call('POST', '/assistant/feedback', { messageId: res.body.reply.id, rating: 'down' }));
    expect((await b.call('GET', '/assistant/conversations')).body.conversations).toEqual([]);
    expect((await b.call('GET', '/tasks')).body.tasks).toEqual([]);
    // b's "my 3pm" never finds a's events.
    await createEvent(a, 'Private', a.at(a.today, 900), 30);
    expect((await say(b, 'move my 3pm to friday')).body.reply.suggestions).toEqual([]);
    expect((await decide(a, suggestion.id, 'confirm')).status).toBe(200);
    expect((await b.call('GET', '/tasks')).body.tasks).toEqual([]);
  });
});
