/** Focus sessions by person: the current one (GET /focus), and stopped ones for goal progress. */
import { FocusSessionRecord } from '../contracts/focus';
import { projection } from './projection';

export const FOCUS = 'focus';

export const focusProjection = projection({
  name: FOCUS,
  version: 2, // v2: erasure stamps on every document
  collections: { sessions: { indexes: [['userId', 'status'], ['goalId', '_startMs']] } },
  handles: ['focus.started', 'focus.paused', 'focus.resumed', 'focus.stopped'],
  async apply(e, docs) {
    const parsed = FocusSessionRecord.safeParse(e.data);
    if (!parsed.success) return;
    const session = parsed.data;
    await docs('sessions').putIfNewer({
      ...session, _id: session.id, _pos: e.position, _changedAt: e.metadata.occurredAt, _startMs: Date.parse(session.startedAt),
    });
  },
});
