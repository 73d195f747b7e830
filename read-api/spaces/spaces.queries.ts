import type { CalendarRole } from '../../contracts/calendar-members';
import type { Calendar, Space } from '../../contracts/spaces';
import { publicView, type ReadModels } from '../../projections/read-models';
import { SCHEDULE } from '../../projections/schedule.projection';
import { calendarAccessOf } from './calendar-access';

export async function spaceIdsOf(models: ReadModels, userId: string): Promise<string[]> {
  const memberships = await (await models.docs(SCHEDULE))('memberships').find({ userId });
  return memberships.map((m) => m.spaceId as string);
}

export async function spacesOf(models: ReadModels, userId: string): Promise<Space[]> {
  const ids = await spaceIdsOf(models, userId);
  if (ids.length === 0) return [];
  const docs = await (await models.docs(SCHEDULE))('spaces').find({ id: { $in: ids } }, { sort: [['createdAt', 1], ['id', 1]] });
  return docs.map((d) => publicView<Space>(d));
}

/** The calendars the user can see, each with their role (shared ones included). */
export async function calendarsOf(models: ReadModels, userId: string): Promise<Array<Calendar & { role: CalendarRole }>> {
  return (await calendarAccessOf(models, userId)).map((a) => ({ ...a.calendar, role: a.role }));
}
