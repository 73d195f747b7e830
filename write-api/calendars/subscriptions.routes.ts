/**
 * Subscriptions to calendars elsewhere (docs/subscriptions.md): subscribing makes a read-only calendar and its
 * fetcher document (due at once); refreshing makes it due again; deleting the calendar unsubscribes. The fetching
 * itself is the dispatcher role's (services/subscriptions/subscription-worker.ts).
 */
import { findOperation } from '../../contracts/operation';
import type { Calendar } from '../../contracts/spaces';
import { subscriptionOperations, type SubscribeBody } from '../../contracts/subscriptions';
import { spaceIdsOf } from '../../read-api/spaces/spaces.queries';
import { listedWithSources } from '../../read-api/spaces/calendar-sources';
import type { AppContext } from '../../services/app-context';
import { decided } from '../../services/commands/command-handler';
import { whyRefused } from '../../services/dispatcher/private-addresses';
import { conflict, invalid, notFound } from '../../services/errors';
import { route, type Input } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { noValidators, SubscriptionStore, type SubscriptionDoc } from '../../services/subscriptions/subscription-store';
import { userDecider, userStream } from '../accounts/user.decider';
import { eventCommands } from '../events/event-commands';
import { scheduleDecider, scheduleStream } from '../schedule/schedule.decider';

type IdParams = { id: string };

const badUrl = (message: string) => invalid(`Invalid body: body.url ${message}`, [{ path: 'body.url', message }]);

/** The address as fetched: `webcal(s)://` is https; credentials belong in `username`/`password`, not in it. */
function sourceUrlOf(raw: string): string {
  const url = new URL(raw);
  if (url.username || url.password) throw badUrl('must not carry credentials: give them as username and password');
  if (url.protocol === 'webcal:' || url.protocol === 'webcals:') return `https:${url.href.slice(url.protocol.length)}`;
  return url.href;
}

export function subscriptionWriteRoutes(app: AppContext) {
  const store = new SubscriptionStore(app.store, app.serverKeys);
  store.ensureIndexes().catch((err: unknown) => app.log.warn({ err }, 'subscription indexes not created'));
  const events = eventCommands(app);

  const context = (input: Input<unknown, unknown, unknown>, spaceId: string) => ({
    userId: input.principal!.userId, commandId: input.commandId, correlationId: input.requestId, spaceId,
  });

  const listed = async (calendar: Calendar) =>
    (await listedWithSources(app.store, [{ calendar, role: 'owner' }]))[0];

  /** A calendar of one of the caller's Spaces, as the schedule holds it; else 404. */
  const calendarOfCaller = async (input: Input<unknown, unknown, IdParams>) => {
    const spaceId = await events.spaceOfCalendar(input.params.id);
    if (!spaceId || !(await spaceIdsOf(app.readModels, input.principal!.userId)).includes(spaceId)) throw notFound('Calendar');
    const calendar = (await app.commands.load(scheduleStream(spaceId), scheduleDecider)).state.calendars.get(input.params.id);
    if (!calendar) throw notFound('Calendar');
    return calendar;
  };

  return [
    route<SubscribeBody>(findOperation(subscriptionOperations, 'post', '/calendars/subscriptions'), async (input) => {
      const { name, color, username, password } = input.body;
      const url = sourceUrlOf(input.body.url);
      if ((username === undefined) !== (password === undefined)) {
        throw invalid('Invalid body: username and password go together', [{ path: username === undefined ? 'body.username' : 'body.password', message: 'is required with the other' }]);
      }
      if (!app.config.WEBHOOK_ALLOW_PRIVATE_URLS) {
        const why = await whyRefused(url);
        if (why) throw badUrl(why);
      }
      const userId = input.principal!.userId;
      const spaceId = (await app.commands.load(userStream(userId), userDecider)).state.user!.personalSpaceId;
      const now = new Date().toISOString();
      const calendar = {
        id: deterministicUuid(input.commandId, 'calendar'), spaceId, name, color: color ?? '#3366ff', isDefault: false,
        source: { url, lastFetchedAt: null, lastError: null }, createdAt: now, updatedAt: now, deletedAt: null,
      };
      const result = await app.commands.handle(scheduleStream(spaceId), scheduleDecider, { type: 'SubscribeCalendar', actorId: userId, calendar }, context(input, spaceId));
      const doc: SubscriptionDoc = {
        _id: calendar.id, _pos: 1, userId, spaceId, calendarId: calendar.id, url,
        sealedCredentials: store.sealCredentials(username !== undefined && password !== undefined ? { username, password } : null),
        validators: noValidators(), nextFetchMs: Date.now(), leasedUntil: null, dueAgain: false, failures: 0, lastFetchedAt: null, lastError: null,
        createdAt: now, updatedAt: now,
      };
      await store.docs.insertNew(doc);
      const made = result.events.length ? decided(result.events, 'calendar.created').calendar : calendar;
      return { status: 201, body: { calendar: await listed(made) }, position: result.position };
    }),

    route<unknown, unknown, IdParams>(findOperation(subscriptionOperations, 'post', '/calendars/{id}/refresh'), async (input) => {
      const calendar = await calendarOfCaller(input);
      if (!calendar.source) throw conflict('not_a_subscription', 'The calendar was made here, not subscribed to: there is nothing to refresh');
      await store.makeDue(calendar.id);
      return { status: 202, body: { calendar: await listed(calendar) } };
    }),

    route<unknown, unknown, IdParams>(findOperation(subscriptionOperations, 'delete', '/calendars/{id}'), async (input) => {
      const calendar = await calendarOfCaller(input);
      const result = await app.commands.handle(scheduleStream(calendar.spaceId), scheduleDecider, {
        type: 'Unsubscribe', actorId: input.principal!.userId, calendarId: calendar.id, now: new Date().toISOString(),
      }, context(input, calendar.spaceId));
      await store.docs.delete(calendar.id);
      return { status: 204, position: result.position };
    }),
  ];
}
