/**
 * One suggestion's decision, on its own stream (`suggestion-<id>`): pending until confirmed or cancelled, decided
 * once. Confirming first claims the suggestion (`confirming`), then carries it out through the ordinary command
 * handlers, then records the outcome: `confirmed`, or `released` back to pending when the change was refused (a
 * time conflict, say). A claim older than CLAIM_MS (its process died) may be taken again by a new confirm; the
 * change itself has ids derived from the suggestion, so it is never made twice.
 */
import type { DomainEvent } from '../../contracts/domain-events';
import type { SuggestionRecord } from '../../contracts/assistant';
import type { Decider } from '../../services/commands/decider';
import { conflict, notFound } from '../../services/errors';

export const CLAIM_MS = 60_000;

export type SuggestionStatus = 'none' | 'pending' | 'confirming' | 'confirmed' | 'cancelled';

export interface SuggestionState {
  status: SuggestionStatus;
  userId: string | null;
  claimedAt: string | null;
  decidedAt: string | null;
  result: SuggestionRecord['result'] | null;
}

type Common = { suggestionId: string; userId: string; at: string };
export type SuggestionCommand =
  | (Common & { type: 'Propose'; conversationId: string; messageId: string; kind: NonNullable<SuggestionRecord['kind']> })
  | (Common & { type: 'Confirm' })
  | (Common & { type: 'Complete'; result: NonNullable<SuggestionRecord['result']> })
  | (Common & { type: 'Release'; reason: string })
  | (Common & { type: 'Cancel' });

export type SuggestionEvent = Extract<DomainEvent, { type: `assistant.suggestion.${string}` }>;

const alreadyDecided = (state: SuggestionState) =>
  conflict('suggestion_already_decided', state.status === 'confirming'
    ? 'This suggestion is being confirmed'
    : `This suggestion was ${state.status} already`, { status: state.status === 'confirming' ? 'confirmed' : state.status });

export const suggestionDecider: Decider<SuggestionCommand, SuggestionEvent, SuggestionState> = {
  initialState: () => ({ status: 'none', userId: null, claimedAt: null, decidedAt: null, result: null }),

  decide(command, state) {
    const record = { suggestionId: command.suggestionId, userId: command.userId, at: command.at };
    if (command.type === 'Propose') {
      if (state.status !== 'none') return [];
      const { conversationId, messageId, kind } = command;
      return [{ type: 'assistant.suggestion.proposed', data: { ...record, conversationId, messageId, kind } }];
    }
    if (state.status === 'none' || state.userId !== command.userId) throw notFound('Suggestion');
    switch (command.type) {
      case 'Confirm': {
        const staleClaim = state.status === 'confirming' && Date.parse(command.at) - Date.parse(state.claimedAt!) >= CLAIM_MS;
        if (state.status !== 'pending' && !staleClaim) throw alreadyDecided(state);
        return [{ type: 'assistant.suggestion.confirming', data: record }];
      }
      case 'Complete':
        if (state.status !== 'confirming') throw alreadyDecided(state);
        return [{ type: 'assistant.suggestion.confirmed', data: { ...record, result: command.result } }];
      case 'Release':
        return state.status === 'confirming' ? [{ type: 'assistant.suggestion.released', data: { ...record, reason: command.reason } }] : [];
      case 'Cancel':
        if (state.status !== 'pending') throw alreadyDecided(state);
        return [{ type: 'assistant.suggestion.cancelled', data: record }];
    }
  },

  evolve(state, event) {
    const { userId, at, result } = event.data;
    switch (event.type) {
      case 'assistant.suggestion.proposed': return { ...state, status: 'pending', userId };
      case 'assistant.suggestion.confirming': return { ...state, status: 'confirming', claimedAt: at };
      case 'assistant.suggestion.released': return { ...state, status: 'pending', claimedAt: null };
      case 'assistant.suggestion.confirmed': return { ...state, status: 'confirmed', decidedAt: at, result: result ?? null };
      case 'assistant.suggestion.cancelled': return { ...state, status: 'cancelled', decidedAt: at };
    }
  },
};

export const suggestionStream = (suggestionId: string) => `suggestion-${suggestionId}`;
