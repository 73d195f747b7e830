import type { Calendar, Space } from '../../contracts/spaces';
import { publicView, type ReadModels } from '../../projections/read-models';
import { SCHEDULE } from '../../projections/schedule.projection';

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

export async function calendarsOf(models: ReadModels, userId: string): Promise<Calendar[]> {
  const ids = await spaceIdsOf(models, userId);
  if (ids.length === 0) return [];
  const docs = await (await models.docs(SCHEDULE))('calendars').find(
    { spaceId: { $in: ids } },
    { sort: [['createdAt', 1], ['id', 1]] },
  );
  return docs.map((d) => publicView<Calendar>(d));
}
