/** What the assistant's routes share, built once per service: history, usage, the assistant and preferences. */
import type { AssistantPreferences } from '../../contracts/assistant';
import type { AppContext } from '../../services/app-context';
import { Assistant } from '../../services/assistant/assistant';
import { ModelHealth } from '../../services/assistant/model-health';
import { openAiChatModel } from '../../services/assistant/openai-chat.model';
import { DAY_MS } from '../../services/assistant/calendar-time';
import { preferencesDecider, preferencesStream } from '../../write-api/assistant/preferences.decider';
import { AiAnswers } from '../plan/ai-answers';
import { AssistantHistory } from './history';

export interface AssistantKit {
  history: AssistantHistory;
  answers: AiAnswers;
  health: ModelHealth;
  assistant: Assistant;
  preferences(userId: string): Promise<AssistantPreferences>;
  /** The caller's preferences and retention cutoff, after purging a bounded batch of what lies before it. */
  retention(userId: string, now: number): Promise<{ preferences: AssistantPreferences; cutoff: number }>;
}

/** The first instant still inside the retention period. */
export const retentionCutoff = (preferences: AssistantPreferences, now: number) => now - preferences.retentionDays * DAY_MS;

const kits = new WeakMap<AppContext, AssistantKit>();

export function assistantKit(app: AppContext): AssistantKit {
  let kit = kits.get(app);
  if (kit) return kit;
  const { ASSISTANT_MODEL_URL: url, ASSISTANT_MODEL: model, ASSISTANT_MODEL_KEY: key, ASSISTANT_MODEL_TIMEOUT_MS: timeoutMs } = app.config;
  const health = new ModelHealth(app.store);
  const history = new AssistantHistory(app.store);
  const preferences = async (userId: string) => (await app.commands.load(preferencesStream(userId), preferencesDecider)).state.preferences;
  kit = {
    history,
    answers: new AiAnswers(app.store),
    health,
    assistant: new Assistant(url && model ? openAiChatModel({ url, model, key, timeoutMs }) : null, health),
    preferences,
    async retention(userId, now) {
      const current = await preferences(userId);
      const cutoff = retentionCutoff(current, now);
      await history.purge(userId, cutoff);
      return { preferences: current, cutoff };
    },
  };
  kits.set(app, kit);
  return kit;
}
