/** Helpers of the subscription suites: a subscription's state as listed, and waiting for its fetcher. */
import { SUBSCRIPTIONS, type SubscriptionDoc } from '../../services/subscriptions/subscription-store';
import type { Client, TestService } from './service';

export type Source = { url: string; lastFetchedAt: string | null; lastError: string | null };
export type ListedCalendar = { id: string; readOnly: boolean; source?: Source };

export function subscriptionsOf(svc: () => TestService) {
  const fetcherDoc = (id: string) => svc().service.ports.store.collection<SubscriptionDoc>(SUBSCRIPTIONS).get(id);

  async function listed(c: Client, id: string): Promise<ListedCalendar | undefined> {
    const res = await c.call('GET', '/calendars');
    expect(res.status).toBe(200);
    return (res.body.calendars as ListedCalendar[]).find((cal) => cal.id === id);
  }

  /** Waits until the fetcher has recorded a fetch past revision `after` of the subscription's document; its state as listed. */
  async function fetchedPast(c: Client, id: string, after: number): Promise<Source> {
    for (const started = Date.now(); Date.now() - started < 15_000;) {
      const doc = await fetcherDoc(id);
      // A fetch is claimed (one revision), then recorded (another) with its lease cleared.
      if (doc && doc._pos >= after + 2 && doc.leasedUntil === null) return (await listed(c, id))!.source!;
      await new Promise((resolve) => setTimeout(resolve, 30));
    }
    throw new Error('no fetch was recorded');
  }

  /** Subscribes and waits for the first fetch. */
  async function subscribed(c: Client, body: Record<string, unknown>) {
    const res = await c.call('POST', '/calendars/subscriptions', { name: 'Elsewhere', ...body });
    if (res.status !== 201) throw new Error(`subscribe: ${res.status} ${JSON.stringify(res.body)}`);
    const id = res.body.calendar.id as string;
    return { id, first: await fetchedPast(c, id, 1), created: res.body.calendar };
  }

  /** POST /calendars/{id}/refresh (202) and the fetch it makes. */
  async function refreshed(c: Client, id: string): Promise<Source> {
    const revision = (await fetcherDoc(id))!._pos;
    const res = await c.call('POST', `/calendars/${id}/refresh`);
    expect(res.status).toBe(202);
    expect(res.body.calendar).toMatchObject({ id, readOnly: true });
    // The refresh makes the document due (one revision); the fetch follows.
    return fetchedPast(c, id, revision + 1);
  }

  /** Waits for a subscription's first fetch (made at once after subscribing). */
  const fetched = (c: Client, id: string) => fetchedPast(c, id, 1);

  return { listed, subscribed, refreshed, fetched };
}
