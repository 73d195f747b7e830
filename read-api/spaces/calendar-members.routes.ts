/** GET /calendars/{id}/members: for the calendar's owner, the people it is shared with. */
import { calendarMemberOperations, memberView, type CalendarMemberRecord } from '../../contracts/calendar-members';
import { findOperation } from '../../contracts/operation';
import type { PageQuery } from '../../contracts/paging';
import type { Calendar } from '../../contracts/spaces';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { AppContext } from '../../services/app-context';
import { forbidden, notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import type { Doc } from '../../services/readstore/read-store.port';
import { pageOf } from '../shared/paging';
import { calendarRoleOf } from './calendar-access';

export function calendarMembersReadRoutes(app: AppContext) {
  return [
    route<unknown, PageQuery, { id: string }>(findOperation(calendarMemberOperations, 'get', '/calendars/{id}/members'), async ({ params, query, principal }) => {
      const schedule = await app.readModels.docs(SCHEDULE);
      const calendar = await schedule<Doc & Calendar>('calendars').get(params.id);
      const role = calendar && !calendar.deletedAt ? await calendarRoleOf(app.readModels, principal!.userId, calendar) : null;
      if (!role) throw notFound('Calendar');
      if (role !== 'owner') throw forbidden('Only the calendar\'s owner sees who it is shared with');
      const page = await pageOf(schedule<Doc & CalendarMemberRecord>('calendarMembers'), { calendarId: params.id, deletedAt: null }, '_id', query);
      return { status: 200, body: { members: page.items.map(memberView), nextPageToken: page.nextPageToken } };
    }),
  ];
}
