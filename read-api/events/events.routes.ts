import type { z } from 'zod';
import { EVENTS_PAGE_SIZE, eventOperations, type ListEventsQuery } from '../../contracts/events';
import { findOperation } from '../../contracts/operation';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { eventsAsOf } from '../../services/history/as-of';
import { pastInstant } from '../../services/history/time-travel';
import { AnswerCache } from '../shared/answer-cache';
import { etagOf } from '../../services/http/etag';
import { eventsPage } from './events-page';
import { visibleEvent } from './events.queries';

export function eventsReadRoutes(app: AppContext) {
  const cache = new AnswerCache();
  return [
    route<unknown, z.infer<typeof ListEventsQuery>>(findOperation(eventOperations, 'get', '/events'), async ({ query, principal }) => {
      // The route machinery checked that `to` is after `from`, by at most MAX_EVENT_RANGE_DAYS.
      const from = Date.parse(query.from);
      const to = Date.parse(query.to);
      const spaces = query.space === undefined ? undefined : [query.space].flat();
      const page = { from, to, spaces, limit: query.limit ?? EVENTS_PAGE_SIZE, pageToken: query.pageToken };
      if (query.asOf) return { status: 200, json: await eventsAsOf(app, principal!.userId, pastInstant(query.asOf), page) };
      const key = JSON.stringify([principal!.userId, page]);
      const position = await app.watermarks.position(SCHEDULE); // read before the query: the entry is at least this fresh
      let json = cache.get(key, position);
      if (json === undefined) {
        json = await eventsPage(app.readModels, principal!.userId, page);
        cache.set(key, position, json);
      }
      return { status: 200, json };
    }),
    route<unknown, unknown, { id: string }>(findOperation(eventOperations, 'get', '/events/{id}'), async ({ params, principal }) => {
      const event = await visibleEvent(app.readModels, principal!.userId, params.id);
      if (!event) throw notFound('Event');
      return { status: 200, body: { event }, headers: { ETag: etagOf(event.version) } };
    }),
  ];
}
