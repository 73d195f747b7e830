/**
 * The assistant with a model: a local server that speaks the chat-completions API answers with tool calls; the
 * suggestions take the same path as the built-in assistant's, and confirming changes the calendar. When the model
 * fails or times out, the built-in assistant answers and the status says so.
 */
import { expectNotFound } from '../support/api-expect';
import { assistantUser, createEvent, decide, iso, nextWeekday, say } from '../support/assistant';
import { lastMessage, startModelServer, toolResult, type ChatRequest, type ModelServer } from '../support/model-server';
import { useTestService, type TestService } from '../support/service';

let model: ModelServer;
let svc: TestService;
const env: Record<string, string> = { ASSISTANT_MODEL: 'local-test-model', ASSISTANT_MODEL_KEY: 'sk-local-test', ASSISTANT_MODEL_TIMEOUT_MS: '1500' };

beforeAll(async () => {
  model = await startModelServer();
  env.ASSISTANT_MODEL_URL = model.url;
});
useTestService((started) => (svc = started), env);
afterAll(() => model.close());

/** The tool whose result the request ends with. */
const answeredTool = (r: ChatRequest) => {
  const messages = r.body.messages;
  return lastMessage(r).role === 'tool' ? messages[messages.length - 2].tool_calls[0].function.name as string : null;
};

describe('a model proposes suggestions with tool calls', () => {
  it('looks for free time, suggests focus, and confirming puts it in the calendar', async () => {
    const c = await assistantUser(svc.base);
    const tomorrow = c.day(1);
    model.requests.length = 0;
    model.script = (r) => {
      if (answeredTool(r) === null) return { toolCalls: [{ name: 'find_free_time', arguments: { from: tomorrow, days: 1, minutes: 45 } }] };
      if (answeredTool(r) === 'find_free_time') {
        const start = Date.parse(toolResult(r)!.free[0].startsAt);
        return { toolCalls: [{ name: 'create_event', arguments: { title: 'Deep work', kind: 'focus', startsAt: iso(start), endsAt: iso(start + 45 * 60_000) } }] };
      }
      return { content: 'I suggest deep work tomorrow at 08:00.' };
    };
    const res = await say(c, 'I need 45 minutes of deep work tomorrow');
    expect(res.body.reply).toMatchObject({ source: 'model', text: 'I suggest deep work tomorrow at 08:00.' });
    const [suggestion] = res.body.reply.suggestions;
    expect(suggestion.proposal).toEqual({
      kind: 'create_event', title: 'Deep work', eventKind: 'focus', startsAt: iso(c.at(tomorrow, 480)), endsAt: iso(c.at(tomorrow, 525)), timeZone: c.zone,
    });

    expect(model.requests).toHaveLength(3);
    const [first] = model.requests;
    expect(first.headers.authorization).toBe('Bearer sk-local-test');
    expect(first.body.model).toBe('local-test-model');
    expect(first.body.tools!.map((t) => t.function.name).sort()).toEqual(['create_event', 'create_task', 'find_free_time', 'move_event', 'summarize_day']);
    expect(first.body.messages[0]).toMatchObject({ role: 'system' });
    expect(first.body.messages[0].content).toContain(c.zone);
    expect(lastMessage(first)).toEqual({ role: 'user', content: 'I need 45 minutes of deep work tomorrow' });

    const confirmed = await decide(c, suggestion.id, 'confirm');
    expect(confirmed.status).toBe(200);
    const events = (await c.call('GET', `/events?from=${iso(c.at(tomorrow, 0))}&to=${iso(c.at(tomorrow, 1440))}`)).body.events;
    expect(events.map((e: Record<string, unknown>) => [e.title, e.kind, e.startsAt])).toEqual([['Deep work', 'focus', iso(c.at(tomorrow, 480))]]);

    // The conversation goes on: the model is told what was said before.
    model.requests.length = 0;
    model.script = () => ({ content: 'You are welcome.' });
    await say(c, 'thanks', { conversationId: res.body.conversation.id });
    expect(model.requests[0].body.messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'I need 45 minutes of deep work tomorrow'], ['assistant', 'I suggest deep work tomorrow at 08:00.'], ['user', 'thanks'],
    ]);
  });

  it('finds the event with summarize_day and moves it with move_event', async () => {
    const c = await assistantUser(svc.base);
    const friday = nextWeekday(c.today, 5);
    const event = await createEvent(c, 'Design review', c.at(c.today, 900), 60);
    model.script = (r) => {
      if (answeredTool(r) === null) return { toolCalls: [{ name: 'summarize_day', arguments: { date: c.today } }] };
      if (answeredTool(r) === 'summarize_day') {
        const found = toolResult(r)!.events.find((e: { title: string }) => e.title === 'Design review');
        return { toolCalls: [{ name: 'move_event', arguments: { eventId: found.id, startsAt: iso(c.at(friday, 900)) } }] };
      }
      return { content: '' };
    };
    const reply = (await say(c, 'move my 3pm to Friday')).body.reply;
    expect(reply.source).toBe('model');
    expect(reply.text).toContain('Move Design review');
    expect(reply.suggestions[0].proposal).toMatchObject({ kind: 'move_event', eventId: event.id, startsAt: iso(c.at(friday, 900)), endsAt: iso(c.at(friday, 960)) });
    expect((await decide(c, reply.suggestions[0].id, 'confirm')).status).toBe(200);
    expect((await c.call('GET', `/events/${event.id}`)).body.event.startsAt).toBe(iso(c.at(friday, 900)));
  });

  it('sends invalid tool arguments back as errors and suggests nothing from them', async () => {
    const c = await assistantUser(svc.base);
    const [other] = [await assistantUser(svc.base)];
    const foreign = await createEvent(other, 'Not yours', other.at(other.day(1), 600), 30);
    const monday = nextWeekday(c.today, 1);
    model.requests.length = 0;
    model.script = () => {
      const step = model.requests.length;
      if (step === 1) return { toolCalls: [{ name: 'create_task', arguments: { title: 'Call Ana', dueAt: 'monday' } }, { name: 'move_event', arguments: { eventId: foreign.id, startsAt: iso(Date.now() + 86_400_000) } }] };
      if (step === 2) return { toolCalls: [{ name: 'create_task', arguments: '{not json' }, { name: 'delete_everything', arguments: {} }] };
      if (step === 3) return { toolCalls: [{ name: 'create_task', arguments: { title: 'Call Ana', dueAt: iso(c.at(monday, 1020)) } }] };
      return { content: 'Added a task suggestion.' };
    };
    const reply = (await say(c, 'add a task to call Ana by Monday')).body.reply;
    const results = model.requests.slice(1, 3).flatMap((r) => r.body.messages.filter((m) => m.role === 'tool').slice(-2).map((m) => JSON.parse(m.content).error));
    expect(results[0]).toMatch(/^invalid arguments: dueAt/);
    expect(results[1]).toBe('no such event in the person\'s calendar');
    expect(results[2]).toBe('arguments are not JSON');
    expect(results[3]).toBe('unknown tool delete_everything');
    expect(reply.suggestions.map((s: { proposal: unknown }) => s.proposal)).toEqual([{ kind: 'create_task', title: 'Call Ana', dueAt: iso(c.at(monday, 1020)) }]);
    const confirmed = await decide(c, reply.suggestions[0].id, 'confirm');
    expect(confirmed.body.task).toMatchObject({ title: 'Call Ana', dueAt: iso(c.at(monday, 1020)) });
    expectNotFound(await other.call('GET', `/tasks/${confirmed.body.task.id}`));
    expect((await other.call('GET', `/events/${foreign.id}`)).body.event.startsAt).toBe(foreign.startsAt);
  });
});

describe('when the model fails', () => {
  it('answers with the built-in assistant on an error status, says so in the status, and recovers', async () => {
    const c = await assistantUser(svc.base);
    model.script = () => ({ status: 500 });
    const reply = (await say(c, 'add a task to call Ana by Monday')).body.reply;
    expect(reply.source).toBe('builtin');
    expect(reply.suggestions[0].proposal).toMatchObject({ kind: 'create_task', title: 'Call Ana' });
    const failing = (await c.call('GET', '/assistant/status')).body;
    expect(failing).toMatchObject({ answeredBy: 'builtin', model: { configured: true, connected: false, name: 'local-test-model' } });
    expect(failing.model.lastError.message).toMatch(/500/);

    model.script = () => ({ content: 'Back again.' });
    expect((await say(c, 'hello')).body.reply).toMatchObject({ source: 'model', text: 'Back again.' });
    expect((await c.call('GET', '/assistant/status')).body).toMatchObject({
      answeredBy: 'model', model: { configured: true, connected: true, lastError: null }, usage: { used: 2 },
    });
  });

  it('answers with the built-in assistant when the model takes too long', async () => {
    const c = await assistantUser(svc.base);
    model.script = () => ({ delayMs: 5000, content: 'Too late.' });
    const reply = (await say(c, 'schedule 30 minutes of focus tomorrow morning')).body.reply;
    expect(reply.source).toBe('builtin');
    expect(reply.suggestions[0].proposal).toMatchObject({ eventKind: 'focus', startsAt: iso(c.at(c.day(1), 480)) });
    const status = (await c.call('GET', '/assistant/status')).body;
    expect(status).toMatchObject({ answeredBy: 'builtin', model: { connected: false } });
    expect(status.model.lastError.message).toBe('no answer within 1500 ms (timed out)');
    model.script = () => ({ content: 'Fine now.' });
    await say(c, 'hello');
  });
});
