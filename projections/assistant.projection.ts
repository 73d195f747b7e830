/**
 * Where each assistant suggestion stands (pending, confirming, confirmed, cancelled), from its decision events:
 * what conversations show next to the proposals kept in the history. Ids and statuses only, no text.
 */
import { SuggestionRecord } from '../contracts/assistant';
import { projection } from './projection';

export const ASSISTANT = 'assistant';

const STATUS: Record<string, string> = {
  'assistant.suggestion.proposed': 'pending',
  'assistant.suggestion.confirming': 'confirming',
  'assistant.suggestion.released': 'pending',
  'assistant.suggestion.confirmed': 'confirmed',
  'assistant.suggestion.cancelled': 'cancelled',
};

export const assistantProjection = projection({
  name: ASSISTANT,
  version: 1,
  collections: { suggestions: { indexes: [] } }, // read by id only (read-api/assistant/views.ts)
  handles: Object.keys(STATUS),
  async apply(e, docs) {
    const record = SuggestionRecord.safeParse(e.data);
    if (!record.success) return;
    const { suggestionId, userId, at, result } = record.data;
    const status = STATUS[e.type];
    await docs('suggestions').putIfNewer({
      _id: suggestionId, _pos: e.position, _changedAt: e.metadata.occurredAt, userId, status,
      result: result ?? null, decidedAt: status === 'confirmed' || status === 'cancelled' ? at : null,
    });
  },
});
