/**
 * A subscribed calendar as listed: `readOnly`, and its `source` with the state of the last fetch, read from the
 * fetcher's documents (services/subscriptions/subscription-store.ts; the log records the subscription only).
 */
import type { ListedCalendar } from '../../contracts/spaces';
import type { ReadStore } from '../../services/readstore/read-store.port';
import { SUBSCRIPTIONS, type SubscriptionDoc } from '../../services/subscriptions/subscription-store';
import type { CalendarAccess } from './calendar-access';

type Listing = Pick<CalendarAccess, 'calendar' | 'role'>;

export async function listedWithSources(store: Pick<ReadStore, 'collection'>, listed: Listing[]): Promise<ListedCalendar[]> {
  const subscribed = listed.filter((l) => l.calendar.source).map((l) => l.calendar.id);
  const docs = subscribed.length ? await store.collection<SubscriptionDoc>(SUBSCRIPTIONS).find({ _id: { $in: subscribed } }) : [];
  const state = new Map(docs.map((d) => [d._id, d]));
  return listed.map(({ calendar, role }) => {
    if (!calendar.source) return { ...calendar, role, readOnly: false };
    const doc = state.get(calendar.id);
    const source = { url: calendar.source.url, lastFetchedAt: doc?.lastFetchedAt ?? null, lastError: doc?.lastError ?? null };
    return { ...calendar, source, role, readOnly: true };
  });
}
