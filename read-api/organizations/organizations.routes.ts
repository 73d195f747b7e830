import type { Organization } from '../../contracts/organizations';
import { organizationOperations } from '../../contracts/organizations';
import { findOperation } from '../../contracts/operation';
import type { PageQuery } from '../../contracts/paging';
import type { Space } from '../../contracts/spaces';
import type { ReadModels } from '../../projections/read-models';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { AppContext } from '../../services/app-context';
import { route } from '../../services/http/route';
import { pageOf } from '../shared/paging';

/** One page of the caller's memberships, keeping those of shared Spaces (personal Spaces are not organizations). */
async function organizationsPage(models: ReadModels, userId: string, query: PageQuery) {
  const docs = await models.docs(SCHEDULE);
  const page = await pageOf(docs('memberships'), { userId }, '_id', query);
  const roles = new Map(page.items.map((m) => [m.spaceId as string, m.role as Organization['role']]));
  const spaces = roles.size
    ? await docs('spaces').find({ id: { $in: [...roles.keys()] }, kind: 'shared' }, { sort: [['_id', 1]] })
    : [];
  const organizations: Organization[] = spaces
    .filter((s) => !s.deletedAt)
    .map((s) => {
      const space = s as unknown as Space;
      return { id: space.id, name: space.name, role: roles.get(space.id)!, spaceIds: [space.id], createdAt: space.createdAt };
    });
  return { organizations, nextPageToken: page.nextPageToken };
}

export function organizationsReadRoutes(app: AppContext) {
  return [
    route<unknown, PageQuery>(findOperation(organizationOperations, 'get', '/organizations'), async ({ principal, query }) => ({
      status: 200,
      body: await organizationsPage(app.readModels, principal!.userId, query),
    })),
  ];
}
