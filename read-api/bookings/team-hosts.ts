/**
 * Who may host an owner's team meeting type: members of one organization the owner belongs to. An organization is
 * a shared Space whose members share it (contracts/organizations.ts), so this asks for a shared Space that the owner
 * and every host belong to. The one place that knows, for the type's writes and for every slot read and booking.
 */
import type { MeetingType } from '../../contracts/bookings';
import type { ReadModels } from '../../projections/read-models';
import { SCHEDULE } from '../../projections/schedule.projection';
import { spaceIdsOf } from '../spaces/spaces.queries';

async function sharedSpacesOf(models: ReadModels, userId: string): Promise<Set<string>> {
  const ids = await spaceIdsOf(models, userId);
  if (ids.length === 0) return new Set();
  const spaces = await (await models.docs(SCHEDULE))('spaces').find({ id: { $in: ids }, kind: 'shared' });
  return new Set(spaces.filter((s) => !s.deletedAt).map((s) => s.id as string));
}

/** The hosts that share no organization with the owner, all of them with one (none when every host does). */
export async function hostsOutsideOrganizations(models: ReadModels, ownerId: string, hostIds: readonly string[]): Promise<string[]> {
  if (hostIds.length === 0) return [];
  const owners = await sharedSpacesOf(models, ownerId);
  const memberships = await Promise.all(hostIds.map(async (id) => ({ id, spaces: new Set(await spaceIdsOf(models, id)) })));
  const common = [...owners].filter((space) => memberships.every((m) => m.spaces.has(space)));
  if (common.length > 0) return [];
  const outside = memberships.filter((m) => ![...owners].some((space) => m.spaces.has(space))).map((m) => m.id);
  return outside.length ? outside : [...hostIds];
}

/** Who hosts the type's meetings now: the owner for their own type; a team type's hosts that still share an organization with the owner. */
export async function currentHosts(models: ReadModels, type: Pick<MeetingType, 'ownerId' | 'hosts'>): Promise<string[]> {
  if (type.hosts.length === 0) return [type.ownerId];
  const owners = await sharedSpacesOf(models, type.ownerId);
  const hosts = await Promise.all(type.hosts.map(async (id) => ({ id, spaces: await spaceIdsOf(models, id) })));
  return hosts.filter((h) => h.id === type.ownerId || h.spaces.some((space) => owners.has(space))).map((h) => h.id);
}
