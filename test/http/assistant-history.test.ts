/**
 * The assistant's history and settings over real HTTP: conversations (paged, continued, deleted one by one or all),
 * feedback, preferences, quick actions, status and usage, retention, idempotent retries and bad input.
 */
import {
  AssistantPreferencesResponse, AssistantStatus, ConversationDetail, ConversationPage, DecisionResponse, QuickActionsResponse, SendMessageResponse,
} from '../../contracts/assistant';
import { expectError, expectInvalid, expectNotFound } from '../support/api-expect';
import { assistantUser, decide, say } from '../support/assistant';
import { usePlanningService } from '../support/planning';
import type { Client } from '../support/service';

const api = usePlanningService();
const DAY = 86_400_000;

const conversations = async (c: Client, query = '') => {
  const res = await c.call('GET', `/assistant/conversations${query}`);
  expect(res.status).toBe(200);
  return res.body as { conversations: Array<Record<string, any>>; nextPageToken: string | null };
};

describe('conversations', () => {
  it('starts a conversation, continues it, lists conversations newest first (paged) and shows the messages in order', async () => {
    const c = await assistantUser(api.base);
    const first = await say(c, 'summarize my day');
    const conversationId = first.body.conversation.id;
    expect(first.body.conversation).toMatchObject({ title: 'summarize my day', surface: 'mobile' });
    const again = await say(c, 'when am I free tomorrow', { conversationId });
    expect(again.body.conversation.id).toBe(conversationId);
    const other = await say(c, 'hello');
    expect(other.body.conversation.id).not.toBe(conversationId);

    const all = await conversations(c);
    expect(all.conversations.map((x) => x.id)).toEqual([other.body.conversation.id, conversationId]);
    const page1 = await conversations(c, '?limit=1');
    expect(page1.conversations.map((x) => x.id)).toEqual([other.body.conversation.id]);
    const page2 = await conversations(c, `?limit=1&pageToken=${page1.nextPageToken}`);
    expect(page2.conversations.map((x) => x.id)).toEqual([conversationId]);
    expect(page2.nextPageToken).toBeNull();

    const detail = await c.call('GET', `/assistant/conversations/${conversationId}`);
    expect(detail.status).toBe(200);
    expect(detail.body.messages.map((m: Record<string, unknown>) => [m.role, m.id])).toEqual([
      ['user', first.body.message.id], ['assistant', first.body.reply.id], ['user', again.body.message.id], ['assistant', again.body.reply.id],
    ]);
    const paged = await c.call('GET', `/assistant/conversations/${conversationId}?limit=3`);
    expect(paged.body.messages).toHaveLength(3);
    const rest = await c.call('GET', `/assistant/conversations/${conversationId}?limit=3&pageToken=${paged.body.nextPageToken}`);
    expect(rest.body.messages.map((m: Record<string, unknown>) => m.id)).toEqual([again.body.reply.id]);
  });

  it('deletes one conversation (its pending suggestions go with it), then all history', async () => {
    const c = await assistantUser(api.base);
    const kept = await say(c, 'hello');
    const gone = await say(c, 'add a task to buy stamps');
    const suggestionId = gone.body.reply.suggestions[0].id;
    expect((await c.call('DELETE', `/assistant/conversations/${gone.body.conversation.id}`)).status).toBe(204);
    expectNotFound(await c.call('GET', `/assistant/conversations/${gone.body.conversation.id}`));
    expectNotFound(await c.call('DELETE', `/assistant/conversations/${gone.body.conversation.id}`));
    expectNotFound(await decide(c, suggestionId, 'confirm'));
    expect((await conversations(c)).conversations.map((x) => x.id)).toEqual([kept.body.conversation.id]);

    expect((await c.call('DELETE', '/assistant/conversations')).status).toBe(204);
    expect((await conversations(c)).conversations).toEqual([]);
    expectNotFound(await c.call('GET', `/assistant/conversations/${kept.body.conversation.id}`));
    expect((await c.call('DELETE', '/assistant/conversations')).status).toBe(204);
  });

  it('a retried message (same Idempotency-Key) is one exchange and one answer counted', async () => {
    const c = await assistantUser(api.base);
    const headers = { 'Idempotency-Key': `retry-${c.userId}` };
    const one = await c.call('POST', '/assistant/messages', { text: 'add a task to renew passport' }, headers);
    const two = await c.call('POST', '/assistant/messages', { text: 'add a task to renew passport' }, headers);
    expect(two.body).toEqual(one.body);
    expect((await conversations(c)).conversations).toHaveLength(1);
    expect((await c.call('GET', '/assistant/status')).body.usage.used).toBe(1);
  });
});

describe('feedback', () => {
  it('rates a reply (a second rating replaces the first) and shows it on the message', async () => {
    const c = await assistantUser(api.base);
    const res = await say(c, 'summarize my day');
    const rate = await c.call('POST', '/assistant/feedback', { messageId: res.body.reply.id, rating: 'down', reason: 'incomplete', comment: 'Missed my tasks' });
    expect(rate.status).toBe(204);
    expect(rate.body).toBeUndefined();
    expect((await c.call('POST', '/assistant/feedback', { messageId: res.body.reply.id, rating: 'up' })).status).toBe(204);
    const detail = await c.call('GET', `/assistant/conversations/${res.body.conversation.id}`);
    expect(detail.body.messages[1].feedback).toMatchObject({ rating: 'up', reason: null, comment: null });
    expect(detail.body.messages[0].feedback).toBeNull();
  });

  it.each([
    [{ rating: 'up' }, 'body.messageId'],
    [{ messageId: 'not-a-uuid', rating: 'up' }, 'body.messageId'],
    [{ messageId: '00000000-0000-4000-8000-000000000001' }, 'body.rating'],
    [{ messageId: '00000000-0000-4000-8000-000000000001', rating: 'meh' }, 'body.rating'],
    [{ messageId: '00000000-0000-4000-8000-000000000001', rating: 'up', comment: 'x'.repeat(2001) }, 'body.comment'],
    [{ messageId: '00000000-0000-4000-8000-000000000001', rating: 'up', reason: 5 }, 'body.reason'],
    [{ messageId: '00000000-0000-4000-8000-000000000001', rating: 'up', stars: 5 }, 'body.stars'],
  ])('400 for %j', async (body, path) => {
    const c = await assistantUser(api.base);
    expectInvalid(await c.call('POST', '/assistant/feedback', body), path);
  });

  it('404 for an unknown message; 400 for rating one\'s own message', async () => {
    const c = await assistantUser(api.base);
    expectNotFound(await c.call('POST', '/assistant/feedback', { messageId: '00000000-0000-4000-8000-000000000001', rating: 'up' }));
    const res = await say(c, 'hello');
    expectInvalid(await c.call('POST', '/assistant/feedback', { messageId: res.body.message.id, rating: 'up' }), 'body.messageId');
  });
});

describe('preferences and quick actions', () => {
  it('starts with defaults, changes what is sent, keeps the rest, and words the quick actions with them', async () => {
    const [c, other] = [await assistantUser(api.base), await assistantUser(api.base)];
    const defaults = { focusPeriod: 'morning', meetingMinutes: 30, focusMinutes: 60, retentionDays: 90, improve: false };
    expect((await c.call('GET', '/assistant/preferences')).body).toEqual({ preferences: defaults });
    const patched = await c.call('PATCH', '/assistant/preferences', { focusPeriod: 'evening', focusMinutes: 90, improve: true });
    expect(patched.status).toBe(200);
    const changed = { ...defaults, focusPeriod: 'evening', focusMinutes: 90, improve: true };
    expect(patched.body).toEqual({ preferences: changed });
    expect((await c.call('GET', '/assistant/preferences')).body).toEqual({ preferences: changed });
    // A PATCH must change something (docs/api-decisions.md): `{}` is refused and changes nothing.
    expectInvalid(await c.call('PATCH', '/assistant/preferences', {}), 'body');
    expect((await c.call('GET', '/assistant/preferences')).body).toEqual({ preferences: changed });
    expect((await other.call('GET', '/assistant/preferences')).body).toEqual({ preferences: defaults });
    const actions = (await c.call('GET', '/assistant/quick-actions')).body.quickActions;
    expect(actions[0]).toEqual({ id: 'plan_focus', label: 'Plan focus time', text: 'schedule 90 minutes of focus tomorrow evening' });
    expect((await other.call('GET', '/assistant/quick-actions')).body.quickActions[0].text).toBe('schedule 60 minutes of focus tomorrow morning');
  });

  it.each([
    [{ focusPeriod: 'night' }, 'body.focusPeriod'],
    [{ meetingMinutes: 0 }, 'body.meetingMinutes'],
    [{ focusMinutes: 481 }, 'body.focusMinutes'],
    [{ focusMinutes: 30.5 }, 'body.focusMinutes'],
    [{ retentionDays: 0 }, 'body.retentionDays'],
    [{ retentionDays: '30' }, 'body.retentionDays'],
    [{ improve: 'yes' }, 'body.improve'],
    [{ theme: 'dark' }, 'body.theme'],
  ])('400 for %j, and nothing changes', async (body, path) => {
    const c = await assistantUser(api.base);
    const before = await api.head();
    expectInvalid(await c.call('PATCH', '/assistant/preferences', body), path);
    expect(await api.head()).toBe(before);
    expect((await c.call('GET', '/assistant/preferences')).body.preferences.focusPeriod).toBe('morning');
  });
});

describe('status', () => {
  it('says no model is connected and counts this month\'s answers per person', async () => {
    const [c, other] = [await assistantUser(api.base), await assistantUser(api.base)];
    const empty = await c.call('GET', '/assistant/status');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({
      answeredBy: 'builtin', model: { configured: false, connected: false, name: null, lastError: null },
      usage: { month: new Date().toISOString().slice(0, 7), used: 0, limit: 50 },
    });
    await say(c, 'hello');
    await say(c, 'summarize my day');
    expect((await c.call('GET', '/assistant/status')).body.usage.used).toBe(2);
    expect((await c.call('GET', '/me/plan')).body.aiAnswers.used).toBe(2);
    expect((await other.call('GET', '/assistant/status')).body.usage.used).toBe(0);
  });
});

describe('retention', () => {
  it('does not return messages older than retentionDays and purges them', async () => {
    const c = await assistantUser(api.base);
    const old = await say(c, 'add a task to file taxes');
    const recent = await say(c, 'hello');
    const mixed = await say(c, 'summarize my day');
    await say(c, 'when am I free tomorrow', { conversationId: mixed.body.conversation.id });
    // Age the first conversation and the first exchange of the third by 3 days, as if they had been written then.
    const store = api.svc.service.context.store;
    const age = async (collection: string, filter: Record<string, string>) => {
      for (const doc of await store.collection(collection).find(filter)) {
        const aged = { ...doc } as Record<string, any>;
        for (const field of ['_createdMs', '_lastMs']) if (typeof aged[field] === 'number') aged[field] -= 3 * DAY;
        await store.collection(collection).put(aged as never);
      }
    };
    await age('_assistant_conversations', { _id: old.body.conversation.id });
    await age('_assistant_messages', { conversationId: old.body.conversation.id });
    await age('_assistant_suggestions', { conversationId: old.body.conversation.id });
    await age('_assistant_messages', { _id: mixed.body.message.id });
    await age('_assistant_messages', { _id: mixed.body.reply.id });

    expect((await conversations(c)).conversations).toHaveLength(3); // 90 days by default
    expect((await c.call('PATCH', '/assistant/preferences', { retentionDays: 2 })).status).toBe(200);
    expect((await conversations(c)).conversations.map((x) => x.id).sort()).toEqual([recent.body.conversation.id, mixed.body.conversation.id].sort());
    expectNotFound(await c.call('GET', `/assistant/conversations/${old.body.conversation.id}`));
    expectNotFound(await decide(c, old.body.reply.suggestions[0].id, 'confirm'));
    const detail = await c.call('GET', `/assistant/conversations/${mixed.body.conversation.id}`);
    expect(detail.body.messages.map((m: { text: string }) => m.text)[0]).toBe('when am I free tomorrow');
    expect(detail.body.messages).toHaveLength(2);
    for (const [collection, filter] of [
      ['_assistant_conversations', { _id: old.body.conversation.id }],
      ['_assistant_messages', { conversationId: old.body.conversation.id }],
      ['_assistant_suggestions', { conversationId: old.body.conversation.id }],
      ['_assistant_messages', { _id: mixed.body.message.id }],
    ] as const) {
      expect(await store.collection(collection).count(filter)).toBe(0);
    }
  });
});

describe('answers', () => {
  it('match the contract\'s schemas', async () => {
    const c = await assistantUser(api.base);
    const event = await say(c, 'schedule 30 minutes of focus tomorrow morning');
    const task = await say(c, 'add a task to book flights by friday', { conversationId: event.body.conversation.id });
    const help = await say(c, 'what can you do');
    for (const res of [event, task, help]) expect(SendMessageResponse.safeParse(res.body).error).toBeUndefined();
    const decided = [await decide(c, event.body.reply.suggestions[0].id, 'confirm'), await decide(c, task.body.reply.suggestions[0].id, 'confirm')];
    for (const res of decided) expect(DecisionResponse.safeParse(res.body).error).toBeUndefined();
    const checks: Array<[string, { safeParse(v: unknown): { error?: unknown } }]> = [
      ['/assistant/conversations', ConversationPage],
      [`/assistant/conversations/${event.body.conversation.id}`, ConversationDetail],
      ['/assistant/preferences', AssistantPreferencesResponse],
      ['/assistant/quick-actions', QuickActionsResponse],
      ['/assistant/status', AssistantStatus],
    ];
    for (const [path, schema] of checks) expect({ path, error: schema.safeParse((await c.call('GET', path)).body).error }).toEqual({ path, error: undefined });
  });
});

describe('bad input', () => {
  it.each([
    [{}, 'body.text'],
    [{ text: '' }, 'body.text'],
    [{ text: '   ' }, 'body.text'],
    [{ text: 'x'.repeat(2001) }, 'body.text'],
    [{ text: 5 }, 'body.text'],
    [{ action: 'launch_rockets' }, 'body.action'],
    [{ conversationId: 'nope', text: 'hello' }, 'body.conversationId'],
    [{ text: 'hello', surface: 'web' }, 'body.surface'],
  ])('POST /assistant/messages %j -> 400, nothing written or counted', async (body, path) => {
    const c = await assistantUser(api.base);
    const before = await api.head();
    expectInvalid(await c.call('POST', '/assistant/messages', body), path);
    expect(await api.head()).toBe(before);
    expect((await conversations(c)).conversations).toEqual([]);
    expect((await c.call('GET', '/assistant/status')).body.usage.used).toBe(0);
  });

  it('404 for an unknown conversation or suggestion; 400 for malformed ids, decisions and pages', async () => {
    const c = await assistantUser(api.base);
    const unknown = '00000000-0000-4000-8000-000000000001';
    expectNotFound(await c.call('POST', '/assistant/messages', { conversationId: unknown, text: 'hello' }));
    expectNotFound(await c.call('GET', `/assistant/conversations/${unknown}`));
    expectNotFound(await decide(c, unknown, 'confirm'));
    expectInvalid(await c.call('GET', '/assistant/conversations/not-a-uuid'), 'path.id');
    expectInvalid(await decide(c, 'not-a-uuid', 'confirm'), 'path.id');
    const { id } = (await say(c, 'add a task to call mum')).body.reply.suggestions[0];
    expectInvalid(await decide(c, id, 'maybe'), 'body.decision');
    expectInvalid(await c.call('POST', `/assistant/actions/${id}`, {}), 'body.decision');
    expectInvalid(await c.call('GET', '/assistant/conversations?limit=0'), 'query.limit');
    expectInvalid(await c.call('GET', '/assistant/conversations?pageToken=bogus'), 'query.pageToken');
    expect((await decide(c, id, 'cancel')).status).toBe(200);
    expectError(await decide(c, id, 'cancel'), 409, 'suggestion_already_decided');
  });
});
