import type { z } from 'zod';
import { EVENTS_PAGE_SIZE, eventOperations, type ListEventsQuery } from '../../contracts/events';
import { findOperation } from '../../contracts/operation';
import { INBOX } from '../../projections/inbox.projection';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { AppContext } from '../../services/app-context';
import { invalid, notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { eventsAsOf } from '../../services/history/as-of';
import { pastInstant } from '../../services/history/time-travel';
import { AnswerCache } from '../shared/answer-cache';
import { etagOf } from '../../services/http/etag';
import { eventsPage } from './events-page';
import { visibleEvent } from './events.queries';

const MAX_RANGE_MS = 366 * 86_400_000;

export function eventsReadRoutes(app: AppContext) {
  const cache = new AnswerCache();
  const invitations = async (userId: string) =>
    (await app.readModels.docs(INBOX))('invitations').find({ userId }, { sort: [['createdAt', -1], ['_id', 1]] });
  const invitationCount = async (userId: string) => (await app.readModels.docs(INBOX))('invitations').count({ userId });
  return [
    route<unknown, z.infer<typeof ListEventsQuery>>(findOperation(eventOperations, 'get', '/events'), async ({ query, principal }) => {
      const from = Date.parse(query.from);
      const to = Date.parse(query.to);
      if (to <= from) throw invalid('to must be after from', [{ path: 'query.to', message: 'must be after from' }]);
      if (to - from > MAX_RANGE_MS) throw invalid('The range may span at most 366 days', [{ path: 'query.to', message: 'at most 366 days after from' }]);
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
