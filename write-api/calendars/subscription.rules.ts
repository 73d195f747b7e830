/**
 * Subscribed calendars in the Space schedule (docs/subscriptions.md): subscribing makes a calendar with a `source`;
 * each fetch of the source is one command that makes the calendar's events what the source says, by UID (created,
 * updated, cancelled when gone from the source, brought back when they return), through the import's rules, so an
 * unchanged source appends nothing; unsubscribing cancels its events and deletes the calendar. Over the API such a
 * calendar is read-only: `requireNotReadOnly` is asked wherever an event would be written into one.
 */
import type { DomainEvent } from '../../contracts/domain-events';
import type { Calendar } from '../../contracts/spaces';
import { MAX_SUBSCRIPTIONS } from '../../contracts/subscriptions';
import { ApiError, conflict, notFound } from '../../services/errors';
import type { ScheduleView } from '../schedule/validation';
import { isAdmin, type MemberView } from '../schedule/members.rules';
import { cancelledAt, decideImport, targetOf, type ImportItem } from './import.rules';

export type SubscriptionCommand =
  | { type: 'SubscribeCalendar'; actorId: string; calendar: Calendar & { source: NonNullable<Calendar['source']> } }
  /** One fetch of the source: `items` is everything the source holds now. */
  | { type: 'RefreshSubscription'; actorId: string; calendarId: string; items: ImportItem[]; now: string }
  | { type: 'Unsubscribe'; actorId: string; calendarId: string; now: string };

export type SubscriptionEvent = Extract<DomainEvent, {
  type: 'calendar.created' | 'calendar.deleted' | 'event.created' | 'event.updated' | 'event.cancelled';
}>;

type View = Omit<ScheduleView, 'calendars'> & Omit<MemberView, 'calendars'> & { calendars: ReadonlyMap<string, Calendar> };

export const calendarReadOnly = () =>
  new ApiError(403, 'calendar_read_only', 'The calendar is a subscription: its events come from its source and cannot be written here');

/** Refuses a write of events into a subscribed calendar. */
export function requireNotReadOnly(view: Pick<View, 'calendars'>, calendarId: string): void {
  if (view.calendars.get(calendarId)?.source) throw calendarReadOnly();
}

function subscribedCalendar(view: View, calendarId: string): Calendar {
  const calendar = view.calendars.get(calendarId);
  if (!calendar || !view.space) throw notFound('Calendar');
  if (!calendar.source) throw conflict('not_a_subscription', 'The calendar was made here, not subscribed to');
  return calendar;
}

/**
 * The source's items as events: what the import decides (those it holds again brought back), and the events it no
 * longer holds cancelled.
 */
function decideRefresh(command: Extract<SubscriptionCommand, { type: 'RefreshSubscription' }>, view: View): SubscriptionEvent[] {
  const { calendarId, now } = command;
  const calendar = subscribedCalendar(view, calendarId);
  const named = new Set(command.items.map((item) => targetOf(item, view, calendarId).id));
  const gone: SubscriptionEvent[] = [];
  for (const event of view.events.values()) {
    if (event.calendarId === calendarId && event.status !== 'cancelled' && !named.has(event.id)) {
      gone.push({ type: 'event.cancelled', data: cancelledAt(event, now) });
    }
  }
  const decided = decideImport({
    type: 'ImportEvents', actorId: command.actorId, calendarId: calendar.id, items: command.items, now, reviveCancelled: true,
  }, view, view.space!.id);
  return [...decided, ...gone];
}

export function decideSubscription(command: SubscriptionCommand, view: View): SubscriptionEvent[] {
  switch (command.type) {
    case 'SubscribeCalendar':
      if (!view.space || !isAdmin(view, command.actorId)) throw notFound('Space');
      if (view.calendars.has(command.calendar.id)) return [];
      if ([...view.calendars.values()].filter((c) => c.source).length >= MAX_SUBSCRIPTIONS) {
        throw conflict('too_many_subscriptions', `A Space holds at most ${MAX_SUBSCRIPTIONS} subscriptions`, { limit: MAX_SUBSCRIPTIONS });
      }
      return [{ type: 'calendar.created', data: { calendar: command.calendar } }];
    case 'RefreshSubscription':
      return decideRefresh(command, view);
    case 'Unsubscribe': {
      if (!view.space || !isAdmin(view, command.actorId)) throw notFound('Calendar');
      const calendar = subscribedCalendar(view, command.calendarId);
      const cancelled = [...view.events.values()]
        .filter((e) => e.calendarId === calendar.id && e.status !== 'cancelled')
        .map((e): SubscriptionEvent => ({ type: 'event.cancelled', data: cancelledAt(e, command.now) }));
      return [...cancelled, { type: 'calendar.deleted', data: { calendar: { ...calendar, updatedAt: command.now, deletedAt: command.now } } }];
    }
  }
}
