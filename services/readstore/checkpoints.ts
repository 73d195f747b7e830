/**
 * Checkpoints: how far a follower of the log (a projection's storage, the relay) has got, one document each. They are
 * written on the condition that they move forward: a write that timed out for its caller may still land once the
 * store answers again, after a later one, and must not take the checkpoint back (on MongoDB it did: the relay then
 * looked behind for as long as no new event came).
 */
import type { Grouped, ReadStore } from './read-store.port';

export const CHECKPOINTS = '_checkpoints';

/** Saves `position` unless a later one is stored. */
export async function saveCheckpoint(store: Grouped, id: string, position: number): Promise<void> {
  await store.collection(CHECKPOINTS).putIfNewer({ _id: id, _pos: position, position, at: new Date().toISOString() });
}

/**
 * The stored position (0 when none). A checkpoint saved before they carried `_pos` is written again with it, once, at
 * the start of its follower: a conditional save never replaces a document without one.
 */
export async function loadCheckpoint(store: ReadStore, id: string): Promise<number> {
  const doc = await store.collection(CHECKPOINTS).get(id);
  const position = (doc?.position as number | undefined) ?? 0;
  if (doc && typeof doc._pos !== 'number') await store.collection(CHECKPOINTS).put({ ...doc, _pos: position });
  return position;
}
