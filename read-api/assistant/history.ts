/**
 * Conversation history as state documents in the read store, not events: messages and the suggestions' proposals
 * are personal text that `retentionDays` and the delete endpoints must be able to erase, which an append-only log
 * cannot do. The suggestions' decisions are events (write-api/assistant/suggestion.decider.ts) and carry no text.
 *
 * Retention: reads skip what is older than the person's cutoff, and each call purges a bounded batch of it.
 */
import type { PageQuery } from '../../contracts/paging';
import type { QuickAction, SuggestionProposal } from '../../contracts/assistant';
import type { Collection, Doc, ReadStore } from '../../services/readstore/read-store.port';
import { pageOf } from '../shared/paging';

export interface ConversationDoc extends Doc {
  userId: string;
  title: string;
  createdAt: string;
  lastMessageAt: string;
  _createdMs: number;
  _lastMs: number;
  _sortKey: string;
}

export interface Feedback {
  rating: 'up' | 'down';
  reason: string | null;
  comment: string | null;
  at: string;
}

export interface MessageDoc extends Doc {
  userId: string;
  conversationId: string;
  role: 'user' | 'assistant';
  text: string;
  action: QuickAction['id'] | null;
  source: 'builtin' | 'model' | null;
  suggestionIds: string[];
  quickActions: QuickAction[];
  feedback: Feedback | null;
  createdAt: string;
  _createdMs: number;
  _sortKey: string;
}

export interface SuggestionDoc extends Doc {
  userId: string;
  conversationId: string;
  messageId: string;
  summary: string;
  proposal: SuggestionProposal;
  createdAt: string;
  _createdMs: number;
}

/** Documents purged per collection and call: retention never makes one request do unbounded work. */
const PURGE_BATCH = 200;

export class AssistantHistory {
  readonly conversations: Collection<ConversationDoc>;
  readonly messages: Collection<MessageDoc>;
  readonly suggestions: Collection<SuggestionDoc>;
  private indexed: Promise<unknown> | null = null;

  constructor(store: ReadStore) {
    this.conversations = store.collection('_assistant_conversations');
    this.messages = store.collection('_assistant_messages');
    this.suggestions = store.collection('_assistant_suggestions');
  }

  private ready(): Promise<unknown> {
    return (this.indexed ??= Promise.all([
      this.conversations.ensureIndex(['userId', '_sortKey']),
      this.conversations.ensureIndex(['userId', '_lastMs']),
      this.messages.ensureIndex(['conversationId', '_sortKey']),
      this.messages.ensureIndex(['userId', '_createdMs']),
      this.suggestions.ensureIndex(['userId', '_createdMs']),
      this.suggestions.ensureIndex(['conversationId']),
    ]));
  }

  /** One of the person's conversations that still has a message inside the retention period. */
  async conversation(userId: string, id: string, cutoffMs: number): Promise<ConversationDoc | null> {
    await this.ready();
    const doc = await this.conversations.get(id);
    return doc && doc.userId === userId && doc._lastMs >= cutoffMs ? doc : null;
  }

  async conversationPage(userId: string, cutoffMs: number, query: PageQuery) {
    await this.ready();
    return pageOf(this.conversations, { userId, _lastMs: { $gte: cutoffMs } }, '_sortKey', query, -1);
  }

  async messagePage(conversation: ConversationDoc, cutoffMs: number, query: PageQuery) {
    await this.ready();
    return pageOf(this.messages, { conversationId: conversation._id, userId: conversation.userId, _createdMs: { $gte: cutoffMs } }, '_sortKey', query);
  }

  /** The last `count` messages of a conversation, oldest first (what the model is told of it). */
  async recent(conversation: ConversationDoc, cutoffMs: number, count: number): Promise<MessageDoc[]> {
    await this.ready();
    const docs = await this.messages.find(
      { conversationId: conversation._id, userId: conversation.userId, _createdMs: { $gte: cutoffMs } },
      { sort: [['_sortKey', -1]], limit: count },
    );
    return docs.reverse();
  }

  async message(userId: string, id: string, cutoffMs: number): Promise<MessageDoc | null> {
    await this.ready();
    const doc = await this.messages.get(id);
    return doc && doc.userId === userId && doc._createdMs >= cutoffMs ? doc : null;
  }

  async suggestion(userId: string, id: string, cutoffMs: number): Promise<SuggestionDoc | null> {
    await this.ready();
    const doc = await this.suggestions.get(id);
    return doc && doc.userId === userId && doc._createdMs >= cutoffMs ? doc : null;
  }

  async suggestionsOf(ids: string[]): Promise<SuggestionDoc[]> {
    return ids.length ? this.suggestions.find({ _id: { $in: ids } }) : [];
  }

  /** Stores one exchange: proposals first, then the messages, then the conversation that lists them. */
  async save(conversation: ConversationDoc, messages: MessageDoc[], suggestions: SuggestionDoc[]): Promise<void> {
    await this.ready();
    for (const s of suggestions) await this.suggestions.put(s);
    for (const m of messages) await this.messages.put(m);
    await this.conversations.put(conversation);
  }

  async setFeedback(message: MessageDoc, feedback: Feedback): Promise<void> {
    await this.messages.put({ ...message, feedback });
  }

  async deleteConversation(conversation: ConversationDoc): Promise<void> {
    const filter = { conversationId: conversation._id, userId: conversation.userId };
    await this.suggestions.deleteMany(filter);
    await this.messages.deleteMany(filter);
    await this.conversations.delete(conversation._id);
  }

  async clear(userId: string): Promise<void> {
    await this.suggestions.deleteMany({ userId });
    await this.messages.deleteMany({ userId });
    await this.conversations.deleteMany({ userId });
  }

  /** Deletes up to PURGE_BATCH documents per collection that are older than the cutoff. */
  async purge(userId: string, cutoffMs: number): Promise<void> {
    await this.ready();
    const batches: Array<[Collection, string]> = [[this.suggestions, '_createdMs'], [this.messages, '_createdMs'], [this.conversations, '_lastMs']];
    for (const [collection, field] of batches) {
      const old = await collection.find({ userId, [field]: { $lt: cutoffMs } }, { limit: PURGE_BATCH });
      if (old.length) await collection.deleteMany({ _id: { $in: old.map((d) => d._id) } });
    }
  }
}
