/** The suggestion and preference deciders, given/when/then: decided once, claims, releases, other people. */
import { DEFAULT_ASSISTANT_PREFERENCES } from '../../contracts/assistant';
import { preferencesDecider } from '../../write-api/assistant/preferences.decider';
import { CLAIM_MS, suggestionDecider, type SuggestionCommand, type SuggestionEvent } from '../../write-api/assistant/suggestion.decider';
import { given } from '../support/given';

const ID = '9d4c5e6f-7081-4c92-9d3e-4f5a6b7c8d9e';
const USER = '5d2c8e3a-1b4f-4c6d-8e9a-0f1b2c3d4e5f';
const OTHER = '6e3d9f4b-2c5a-4d7e-9f0a-1b2c3d4e5f6a';
const T0 = '2026-11-23T18:00:00.000Z';
const later = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();
const base = { suggestionId: ID, userId: USER, at: T0 };
const RESULT = { type: 'event' as const, id: 'ae5d6f70-8192-4da3-8e4f-5a6b7c8d9eaf' };

const proposed: SuggestionEvent = {
  type: 'assistant.suggestion.proposed',
  data: { ...base, conversationId: '6a1f2b3c-4d5e-4f60-8a1b-2c3d4e5f6a7b', messageId: '8c3b4d5e-6f70-4b81-8c2d-3e4f5a6b7c8d', kind: 'create_event' },
};
const confirming: SuggestionEvent = { type: 'assistant.suggestion.confirming', data: base };
const released: SuggestionEvent = { type: 'assistant.suggestion.released', data: { ...base, reason: 'time_conflict' } };
const confirmed: SuggestionEvent = { type: 'assistant.suggestion.confirmed', data: { ...base, result: RESULT } };
const cancelled: SuggestionEvent = { type: 'assistant.suggestion.cancelled', data: base };

const cmd = (type: SuggestionCommand['type'], extra: Record<string, unknown> = {}) => ({ ...base, type, ...extra }) as SuggestionCommand;
const propose = cmd('Propose', { conversationId: proposed.data.conversationId, messageId: proposed.data.messageId, kind: 'create_event' });

describe('suggestion decider', () => {
  it('proposes once; proposing again appends nothing', () => {
    given(suggestionDecider, []).when(propose).then([{ type: 'assistant.suggestion.proposed', data: proposed.data }]);
    given(suggestionDecider, [proposed]).when(propose).then([]);
  });

  it('a pending suggestion is claimed by confirm, then confirmed with its result, or cancelled', () => {
    given(suggestionDecider, [proposed]).when(cmd('Confirm')).then([{ type: 'assistant.suggestion.confirming' }]);
    given(suggestionDecider, [proposed, confirming]).when(cmd('Complete', { result: RESULT })).then([{ type: 'assistant.suggestion.confirmed', data: { ...base, result: RESULT } }]);
    given(suggestionDecider, [proposed]).when(cmd('Cancel')).then([{ type: 'assistant.suggestion.cancelled' }]);
  });

  it.each([
    ['confirmed', [proposed, confirming, confirmed]],
    ['cancelled', [proposed, cancelled]],
    ['being confirmed', [proposed, confirming]],
  ])('a suggestion %s cannot be decided again (409 suggestion_already_decided)', (_state, history) => {
    given(suggestionDecider, history).when(cmd('Confirm')).thenThrows('suggestion_already_decided');
    given(suggestionDecider, history).when(cmd('Cancel')).thenThrows('suggestion_already_decided');
  });

  it('a refused change releases the claim: pending again, so it can be confirmed or cancelled', () => {
    given(suggestionDecider, [proposed, confirming]).when(cmd('Release', { reason: 'time_conflict' })).then([{ type: 'assistant.suggestion.released' }]);
    given(suggestionDecider, [proposed, confirming, released]).when(cmd('Cancel')).then([{ type: 'assistant.suggestion.cancelled' }]);
    given(suggestionDecider, [proposed, confirming, released]).when(cmd('Confirm')).then([{ type: 'assistant.suggestion.confirming' }]);
    given(suggestionDecider, [proposed, confirming, confirmed]).when(cmd('Release', { reason: 'x' })).then([]);
    given(suggestionDecider, [proposed]).when(cmd('Complete', { result: RESULT })).thenThrows('suggestion_already_decided');
  });

  it('a claim left by a process that died may be taken again after CLAIM_MS, not before', () => {
    given(suggestionDecider, [proposed, confirming]).when(cmd('Confirm', { at: later(CLAIM_MS - 1) })).thenThrows('suggestion_already_decided');
    given(suggestionDecider, [proposed, confirming]).when(cmd('Confirm', { at: later(CLAIM_MS) })).then([{ type: 'assistant.suggestion.confirming' }]);
  });

  it('someone else\'s suggestion, or none, is 404', () => {
    for (const type of ['Confirm', 'Cancel', 'Complete', 'Release'] as const) {
      given(suggestionDecider, [proposed]).when(cmd(type, { userId: OTHER, result: RESULT, reason: 'x' })).thenThrows('not_found');
      given(suggestionDecider, []).when(cmd(type, { result: RESULT, reason: 'x' })).thenThrows('not_found');
    }
  });
});

describe('preferences decider', () => {
  const update = (changes: Record<string, unknown>) => ({ type: 'Update' as const, userId: USER, changes, at: T0 });
  it('records a change as the whole new preferences, and nothing when nothing changes', () => {
    given(preferencesDecider, []).when(update({ focusMinutes: 90 })).then([
      { type: 'assistant.preferences_updated', data: { userId: USER, at: T0, preferences: { ...DEFAULT_ASSISTANT_PREFERENCES, focusMinutes: 90 } } },
    ]);
    given(preferencesDecider, []).when(update({ focusMinutes: DEFAULT_ASSISTANT_PREFERENCES.focusMinutes })).then([]);
    given(preferencesDecider, []).when(update({})).then([]);
  });
});
