/**
 * Who answers: the model when one is configured and answers, else the built-in assistant. A model failure
 * (unreachable, error status, time-out, unusable answer) is recorded for GET /assistant/status and the built-in
 * assistant answers instead.
 */
import { builtinAnswer, type Answer } from './builtin';
import { modelAnswer, type Turn } from './model.assistant';
import type { ModelHealth } from './model-health';
import { ModelError, type ChatModel } from './model.port';
import type { AssistantWorld } from './world';

export type SourcedAnswer = Answer & { source: 'builtin' | 'model' };

export class Assistant {
  constructor(
    readonly model: ChatModel | null,
    private readonly health: ModelHealth,
  ) {}

  async answer(text: string, history: Turn[], world: AssistantWorld): Promise<SourcedAnswer> {
    if (this.model) {
      try {
        const answer = await modelAnswer(this.model, text, history, world);
        await this.health.answered();
        return { ...answer, source: 'model' };
      } catch (err) {
        if (!(err instanceof ModelError)) throw err;
        await this.health.failed(err.message);
      }
    }
    return { ...(await builtinAnswer(text, world)), source: 'builtin' };
  }
}
