import { findOperation } from '../../contracts/operation';
import { projectOperations, taskOperations, type ListProjectsQuery, type ListTasksQuery } from '../../contracts/tasks';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import { etagOf } from '../../services/http/etag';
import { route } from '../../services/http/route';
import { tasksAsOf } from '../../services/history/as-of';
import { pastInstant } from '../../services/history/time-travel';
import { projectDetail, projectPage, taskPage, visibleTask } from './tasks.queries';

type IdParams = { id: string };

export function tasksReadRoutes(app: AppContext) {
  return [
    route<unknown, ListTasksQuery>(findOperation(taskOperations, 'get', '/tasks'), async ({ query, principal }) => ({
      status: 200,
      body: query.asOf
        ? await tasksAsOf(app, principal!.userId, pastInstant(query.asOf), query)
        : await taskPage(app.readModels, principal!.userId, query),
    })),
    route<unknown, unknown, IdParams>(findOperation(taskOperations, 'get', '/tasks/{id}'), async ({ params, principal }) => {
      const task = await visibleTask(app.readModels, principal!.userId, params.id);
      if (!task) throw notFound('Task');
      return { status: 200, body: { task }, headers: { ETag: etagOf(task.version) } };
    }),
    route<unknown, ListProjectsQuery>(findOperation(projectOperations, 'get', '/projects'), async ({ query, principal }) => {
      const archived = query.archived === '1' || query.archived === 'true';
      return { status: 200, body: await projectPage(app.readModels, principal!.userId, archived, query) };
    }),
    route<unknown, unknown, IdParams>(findOperation(projectOperations, 'get', '/projects/{id}'), async ({ params, principal }) => {
      const detail = await projectDetail(app.readModels, principal!.userId, params.id);
      if (!detail) throw notFound('Project');
      return { status: 200, body: detail, headers: { ETag: etagOf(detail.project.version) } };
    }),
  ];
}
