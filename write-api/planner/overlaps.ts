import type { ApplyBlock } from '../../contracts/planner';
import { conflict } from '../../services/errors';

/**
 * Blocks of one apply may not overlap each other: as events they would conflict with themselves. Refused like a
 * conflict with a busy event (409 `time_conflict`), each overlapping block named by its index; nothing is written.
 */
export function refuseOverlappingBlocks(blocks: readonly ApplyBlock[]): void {
  const spans = blocks
    .map((b, block) => ({ block, start: Date.parse(b.startsAt), end: Date.parse(b.endsAt), startsAt: b.startsAt, endsAt: b.endsAt }))
    .sort((a, b) => a.start - b.start || a.block - b.block);
  const overlapping = spans.filter((s, k) => k > 0 && spans.slice(0, k).some((earlier) => earlier.end > s.start));
  if (overlapping.length) {
    const conflicts = overlapping.map(({ block, startsAt, endsAt }) => ({ block, startsAt, endsAt }));
    throw conflict('time_conflict', 'Blocks of this apply overlap each other; nothing was written', { conflicts });
  }
}
