/** A person's assistant preferences, on their own stream (`assistant-preferences-<userId>`); defaults until changed. */
import { DEFAULT_ASSISTANT_PREFERENCES, type AssistantPreferences } from '../../contracts/assistant';
import type { DomainEvent } from '../../contracts/domain-events';
import type { Decider } from '../../services/commands/decider';

export interface PreferencesState {
  preferences: AssistantPreferences;
}

export type PreferencesCommand = { type: 'Update'; userId: string; changes: Partial<AssistantPreferences>; at: string };
export type PreferencesEvent = Extract<DomainEvent, { type: 'assistant.preferences_updated' }>;

export const preferencesDecider: Decider<PreferencesCommand, PreferencesEvent, PreferencesState> = {
  initialState: () => ({ preferences: DEFAULT_ASSISTANT_PREFERENCES }),
  decide(command, state) {
    const next = { ...state.preferences, ...command.changes };
    const same = (Object.keys(next) as Array<keyof AssistantPreferences>).every((k) => next[k] === state.preferences[k]);
    return same ? [] : [{ type: 'assistant.preferences_updated', data: { userId: command.userId, preferences: next, at: command.at } }];
  },
  evolve: (_state, event) => ({ preferences: event.data.preferences }),
};

export const preferencesStream = (userId: string) => `assistant-preferences-${userId}`;
