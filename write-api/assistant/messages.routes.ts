/** Messages to the assistant, feedback on its replies, and deleting history. */
import {
  ASSISTANT_LIMITS, assistantOperations, type FeedbackBody, type QuickAction, type SendMessageBody,
} from '../../contracts/assistant';
import { findOperation, type Method } from '../../contracts/operation';
import { assistantKit } from '../../read-api/assistant/assistant-kit';
import type { ConversationDoc, MessageDoc, SuggestionDoc } from '../../read-api/assistant/history';
import { assistantWorld } from '../../read-api/assistant/world';
import { conversationView, messageView, PENDING, suggestionView } from '../../read-api/assistant/views';
import type { AppContext } from '../../services/app-context';
import type { SourcedAnswer } from '../../services/assistant/assistant';
import { quickActions } from '../../services/assistant/quick-actions';
import { invalid, notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { suggestionDecider, suggestionStream } from './suggestion.decider';

/** Messages of the conversation the model is told about (the built-in assistant reads one message at a time). */
const HISTORY_TURNS = 10;
const TITLE_LENGTH = 80;

const operation = (method: Method, path: string) => findOperation(assistantOperations, method, path);

interface Exchange {
  conversation: ConversationDoc;
  message: MessageDoc;
  reply: MessageDoc;
  suggestions: SuggestionDoc[];
}

/** The documents of one exchange; every id derives from the command id, so a retried request writes the same ones. */
function exchangeOf(commandId: string, userId: string, now: number, existing: ConversationDoc | null, text: string, body: SendMessageBody, answer: SourcedAnswer, offered: QuickAction[]): Exchange {
  const at = new Date(now).toISOString();
  const conversationId = existing?._id ?? deterministicUuid(commandId, 'conversation');
  const messageId = deterministicUuid(commandId, 'message');
  const replyId = deterministicUuid(commandId, 'reply');
  const suggestions = answer.suggestions.slice(0, ASSISTANT_LIMITS.suggestionsPerReply).map((s, k): SuggestionDoc => ({
    _id: deterministicUuid(commandId, 'suggestion', String(k)), userId, conversationId, messageId: replyId,
    summary: s.summary, proposal: s.proposal, createdAt: at, _createdMs: now,
  }));
  const message = (id: string, role: MessageDoc['role'], order: number): MessageDoc => ({
    _id: id, userId, conversationId, role, text: role === 'user' ? text : answer.text, action: role === 'user' ? body.action ?? null : null,
    source: role === 'user' ? null : answer.source, suggestionIds: role === 'user' ? [] : suggestions.map((s) => s._id),
    quickActions: role === 'assistant' && answer.offerQuickActions ? offered : [], feedback: null,
    createdAt: at, _createdMs: now, _sortKey: `${at}|${order}|${id}`,
  });
  const conversation: ConversationDoc = existing
    ? { ...existing, lastMessageAt: at, _lastMs: now }
    : {
        _id: conversationId, userId, title: text.slice(0, TITLE_LENGTH), createdAt: at, lastMessageAt: at,
        _createdMs: now, _lastMs: now, _sortKey: `${at}|${conversationId}`,
      };
  return { conversation, message: message(messageId, 'user', 0), reply: message(replyId, 'assistant', 1), suggestions };
}

export function messagesRoutes(app: AppContext) {
  const kit = assistantKit(app);

  return [
    route<SendMessageBody>(operation('post', '/assistant/messages'), async (input) => {
      const userId = input.principal!.userId;
      const body = input.body;
      const now = Date.now();
      const { preferences, cutoff } = await kit.retention(userId, now);
      const existing = body.conversationId ? await kit.history.conversation(userId, body.conversationId, cutoff) : null;
      if (body.conversationId && !existing) throw notFound('Conversation');
      const offered = quickActions(preferences);
      const text = body.text ?? offered.find((a) => a.id === body.action)!.text;
      const history = existing ? await kit.history.recent(existing, cutoff, HISTORY_TURNS) : [];
      const world = await assistantWorld(app, userId, now, preferences);
      const answer = await kit.assistant.answer(text, history.map((m) => ({ role: m.role, text: m.text })), world);

      const exchange = exchangeOf(input.commandId, userId, now, existing, text, body, answer, offered);
      await kit.history.save(exchange.conversation, [exchange.message, exchange.reply], exchange.suggestions);
      const proposed = await Promise.all(exchange.suggestions.map((s) =>
        app.commands.handle(suggestionStream(s._id), suggestionDecider, {
          type: 'Propose', suggestionId: s._id, userId, at: s.createdAt, conversationId: s.conversationId, messageId: s.messageId, kind: s.proposal.kind,
        }, { userId, commandId: input.commandId, correlationId: input.requestId })));
      await kit.answers.record(userId, exchange.reply._id, new Date(now));
      const positions = proposed.map((p) => p.position ?? 0);
      return {
        status: 200,
        body: {
          conversation: conversationView(exchange.conversation),
          message: messageView(exchange.message, []),
          reply: messageView(exchange.reply, exchange.suggestions.map((s) => suggestionView(s, PENDING))),
        },
        position: positions.length ? Math.max(...positions) : null,
      };
    }),

    route<FeedbackBody>(operation('post', '/assistant/feedback'), async ({ principal, body }) => {
      const userId = principal!.userId;
      const { cutoff } = await kit.retention(userId, Date.now());
      const message = await kit.history.message(userId, body.messageId, cutoff);
      if (!message) throw notFound('Message');
      if (message.role !== 'assistant') {
        throw invalid('Feedback rates the assistant\'s replies', [{ path: 'body.messageId', message: 'must be an assistant reply' }]);
      }
      await kit.history.setFeedback(message, { rating: body.rating, reason: body.reason ?? null, comment: body.comment ?? null, at: new Date().toISOString() });
      return { status: 204 };
    }),

    route<unknown, unknown, { id: string }>(operation('delete', '/assistant/conversations/{id}'), async ({ principal, params }) => {
      const userId = principal!.userId;
      const { cutoff } = await kit.retention(userId, Date.now());
      const conversation = await kit.history.conversation(userId, params.id, cutoff);
      if (!conversation) throw notFound('Conversation');
      await kit.history.deleteConversation(conversation);
      return { status: 204 };
    }),

    route(operation('delete', '/assistant/conversations'), async ({ principal }) => {
      await kit.history.clear(principal!.userId);
      return { status: 204 };
    }),
  ];
}
