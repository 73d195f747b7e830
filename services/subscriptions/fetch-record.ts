/**
 * The fetch bookkeeping of one subscription, pure: what a fetch's outcome makes of the subscription's document.
 * A success (changed or not) is due again after the refresh interval, its validators kept for the next conditional
 * request; a failure after the backoff (RETRY_FIRST_MS, four times as long after each further failure, at most
 * RETRY_LONGEST_MS), with `lastError` saying why and the old validators kept (the next answer is read in full).
 */
import type { SubscriptionDoc, Validators } from './subscription-store';

export const RETRY_FIRST_MS = 60_000;
export const RETRY_LONGEST_MS = 6 * 3_600_000;

export type FetchOutcome =
  | { kind: 'not_modified' }
  | { kind: 'changed'; validators: Validators }
  | { kind: 'failed'; error: string };

/** The wait after `failures` failed fetches in a row: 1 min, 4 min, 16 min, 64 min, 4 h 16 min, then 6 h. */
export const retryDelayMs = (failures: number, firstMs = RETRY_FIRST_MS) =>
  Math.min(firstMs * 4 ** Math.max(0, failures - 1), RETRY_LONGEST_MS);

export function recordFetch(
  doc: SubscriptionDoc, outcome: FetchOutcome, nowMs: number, settings: { refreshMs: number; retryFirstMs?: number },
): Partial<SubscriptionDoc> {
  const at = new Date(nowMs).toISOString();
  const done = { leasedUntil: null };
  switch (outcome.kind) {
    case 'not_modified':
      return { ...done, failures: 0, lastError: null, lastFetchedAt: at, nextFetchMs: nowMs + settings.refreshMs };
    case 'changed':
      return { ...done, failures: 0, lastError: null, lastFetchedAt: at, validators: outcome.validators, nextFetchMs: nowMs + settings.refreshMs };
    case 'failed': {
      const failures = doc.failures + 1;
      return { ...done, failures, lastError: outcome.error, nextFetchMs: nowMs + retryDelayMs(failures, settings.retryFirstMs) };
    }
  }
}
