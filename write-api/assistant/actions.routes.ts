/** POST /assistant/actions/{id}: confirm (carry the suggestion out) or cancel (discard it), once. */
import { assistantOperations, type DecisionBody } from '../../contracts/assistant';
import { findOperation } from '../../contracts/operation';
import { assistantKit } from '../../read-api/assistant/assistant-kit';
import { suggestionView } from '../../read-api/assistant/views';
import type { AppContext } from '../../services/app-context';
import { ApiError, notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { carryOut } from './carry-out';
import { suggestionDecider, suggestionStream, type SuggestionCommand } from './suggestion.decider';

/** A command without what every step shares (the suggestion, the caller, the instant). */
type StepOf<C> = C extends unknown ? Omit<C, 'suggestionId' | 'userId' | 'at'> : never;
type Step = StepOf<SuggestionCommand>;

export function actionsRoutes(app: AppContext) {
  const kit = assistantKit(app);
  const perform = carryOut(app);

  return [
    route<DecisionBody, unknown, { id: string }>(findOperation(assistantOperations, 'post', '/assistant/actions/{id}'), async (input) => {
      const userId = input.principal!.userId;
      const id = input.params.id;
      const { cutoff } = await kit.retention(userId, Date.now());
      const suggestion = await kit.history.suggestion(userId, id, cutoff);
      if (!suggestion) throw notFound('Suggestion');
      // Each step is its own command (its own event ids) on the suggestion's stream.
      const decide = (step: Step) => app.commands.handle(suggestionStream(id), suggestionDecider,
        { ...step, suggestionId: id, userId, at: new Date().toISOString() } as SuggestionCommand,
        { userId, commandId: deterministicUuid(input.commandId, step.type), correlationId: input.requestId });

      if (input.body.decision === 'cancel') {
        const cancelled = await decide({ type: 'Cancel' });
        const at = cancelled.events[0].data.at;
        return {
          status: 200,
          body: { suggestion: suggestionView(suggestion, { status: 'cancelled', result: null, decidedAt: at }), event: null, task: null },
          position: cancelled.position,
        };
      }

      await decide({ type: 'Confirm' });
      let done;
      try {
        done = await perform(suggestion.proposal, id, input);
      } catch (err) {
        // Refused by the domain (a conflict, the event gone): the suggestion stays pending and the refusal is the answer.
        if (err instanceof ApiError) await decide({ type: 'Release', reason: err.code });
        throw err;
      }
      const confirmed = await decide({ type: 'Complete', result: done.result });
      const at = confirmed.events[0].data.at;
      return {
        status: 200,
        body: { suggestion: suggestionView(suggestion, { status: 'confirmed', result: done.result, decidedAt: at }), event: done.event, task: done.task },
        position: confirmed.position,
      };
    }),
  ];
}
