import type { ListedCalendar, Space } from '../../contracts/spaces';
import type { ReadStore } from '../../services/readstore/read-store.port';
import { publicView, type ReadModels } from '../../projections/read-models';
import { SCHEDULE } from '../../projections/schedule.projection';
import { calendarAccessOf } from './calendar-access';
import { listedWithSources } from './calendar-sources';

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

/** The calendars the user can see, each with their role (shared ones included), subscriptions with their source's state. */
export async function calendarsOf(models: ReadModels, store: Pick<ReadStore, 'collection'>, userId: string): Promise<ListedCalendar[]> {
  return listedWithSources(store, await calendarAccessOf(models, userId));
}
