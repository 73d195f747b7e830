/** The answers' shapes: conversations, messages with their suggestions, suggestions with where they stand. */
import type { Suggestion } from '../../contracts/assistant';
import { ASSISTANT } from '../../projections/assistant.projection';
import type { ReadModels } from '../../projections/read-models';
import type { Doc } from '../../services/readstore/read-store.port';
import type { AssistantHistory, ConversationDoc, MessageDoc, SuggestionDoc } from './history';

export interface Standing {
  status: Suggestion['status'];
  result: Suggestion['result'];
  decidedAt: string | null;
}

export const PENDING: Standing = { status: 'pending', result: null, decidedAt: null };

export const conversationView = (doc: ConversationDoc) => ({
  id: doc._id, title: doc.title, surface: 'mobile' as const, createdAt: doc.createdAt, lastMessageAt: doc.lastMessageAt,
});

export const suggestionView = (doc: SuggestionDoc, standing: Standing): Suggestion => ({
  id: doc._id, conversationId: doc.conversationId, messageId: doc.messageId, status: standing.status, summary: doc.summary,
  proposal: doc.proposal, result: standing.result, createdAt: doc.createdAt, decidedAt: standing.decidedAt,
});

export const messageView = (doc: MessageDoc, suggestions: Suggestion[]) => ({
  id: doc._id, conversationId: doc.conversationId, role: doc.role, text: doc.text, action: doc.action, surface: 'mobile' as const,
  source: doc.source, suggestions, quickActions: doc.quickActions, feedback: doc.feedback, createdAt: doc.createdAt,
});

type StandingDoc = Doc & { status: string; result: Suggestion['result']; decidedAt: string | null };

/** A suggestion being confirmed still shows as pending: it becomes confirmed once the change is made. */
const standingOf = (doc: StandingDoc | undefined): Standing =>
  !doc || doc.status === 'confirming' || doc.status === 'pending'
    ? PENDING
    : { status: doc.status as Standing['status'], result: doc.result, decidedAt: doc.decidedAt };

/** Messages with their suggestions and where each stands (one read of each collection per page). */
export async function messageViews(models: ReadModels, history: AssistantHistory, docs: MessageDoc[]) {
  const ids = docs.flatMap((d) => d.suggestionIds);
  const [proposals, standings] = ids.length
    ? await Promise.all([history.suggestionsOf(ids), (await models.docs(ASSISTANT))<StandingDoc>('suggestions').find({ _id: { $in: ids } })])
    : [[], []];
  const proposal = new Map(proposals.map((p) => [p._id, p]));
  const standing = new Map(standings.map((s) => [s._id, s]));
  return docs.map((d) => messageView(d, d.suggestionIds.flatMap((id) => {
    const p = proposal.get(id);
    return p ? [suggestionView(p, standingOf(standing.get(id)))] : [];
  })));
}
