import { BUILT_IN_EVENT_TYPES, eventTypeOperations, MAX_EVENT_TYPES, type EventType } from '../../contracts/event-types';
import { findOperation } from '../../contracts/operation';
import { EVENT_TYPES } from '../../projections/event-types.projection';
import { publicView } from '../../projections/read-models';
import type { AppContext } from '../../services/app-context';
import { route } from '../../services/http/route';

export function eventTypesReadRoutes(app: AppContext) {
  return [
    route(findOperation(eventTypeOperations, 'get', '/event-types'), async ({ principal }) => {
      const own = await (await app.readModels.docs(EVENT_TYPES))('types').find(
        { _userId: principal!.userId, deletedAt: null },
        { sort: [['_sortKey', 1]], limit: MAX_EVENT_TYPES },
      );
      return { status: 200, body: { eventTypes: [...BUILT_IN_EVENT_TYPES, ...own.map((d) => publicView<EventType>(d))] } };
    }),
  ];
}
