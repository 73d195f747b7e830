import type { z } from 'zod';
import { eventOperations, type ListEventsQuery } from '../../contracts/events';
import { findOperation } from '../../contracts/operation';
import { INBOX } from '../../projections/inbox.projection';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { EventsCache } from './events-cache';
import { etagOf } from '../../services/http/etag';
import { eventsBetween, visibleEvent } from './events.queries';

export function eventsReadRoutes(app: AppContext) {
  const cache = new EventsCache();
  const invitations = async (userId: string) =>
    (await app.readModels.docs(INBOX))('invitations').find({ userId }, { sort: [['createdAt', -1], ['_id', 1]] });
  const invitationCount = async (userId: string) => (await app.readModels.docs(INBOX))('invitations').count({ userId });
  return [
    route<unknown, z.infer<typeof ListEventsQuery>>(findOperation(eventOperations, 'get', '/events'), async ({ query, principal }) => {
      // The route machinery checked that `to` is after `from`, by at most MAX_EVENT_RANGE_DAYS.
      const from = Date.parse(query.from);
      const to = Date.parse(query.to);
      const spaces = query.space === undefined ? undefined : [query.space].flat();
      const key = JSON.stringify([principal!.userId, from, to, spaces]);
      const position = await app.watermarks.position(SCHEDULE); // read before the query: the entry is at least this fresh
      let json = cache.get(key, position);
      if (json === undefined) {
        json = Buffer.from(JSON.stringify({ events: await eventsBetween(app.readModels, principal!.userId, from, to, spaces) }));
        cache.set(key, position, json);
      }
      return { status: 200, json };
    }),
    route<unknown, unknown, { id: string }>(findOperation(eventOperations, 'get', '/events/{id}'), async ({ params, principal }) => {
      const event = await visibleEvent(app.readModels, principal!.userId, params.id);
      if (!event) throw notFound('Event');
      return { status: 200, body: { event }, headers: { ETag: etagOf(event.version) } };
    }),
    route(findOperation(eventOperations, 'get', '/inbox'), async ({ principal }) => ({
      status: 200,
      body: {
        items: (await invitations(principal!.userId)).map((d) => ({ id: d._id, type: 'invitation', event: d.event, createdAt: d.createdAt })),
      },
    })),
    route(findOperation(eventOperations, 'get', '/inbox/count'), async ({ principal }) => ({
      status: 200,
      body: { count: await invitationCount(principal!.userId) },
    })),
  ];
}
