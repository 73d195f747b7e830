import type { z } from 'zod';
import { findOperation } from '../../contracts/operation';
import {
  DEFAULT_LIST_NAME, projectOperations, type CreateListBody, type CreateProjectBody, type Project, type TaskList, type UpdateProjectBody,
} from '../../contracts/tasks';
import type { AppContext } from '../../services/app-context';
import { decided } from '../../services/commands/command-handler';
import { notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { board, ifMatch, lastOf, withEtag } from './board';

type IdParams = { id: string };

/** Projects live on their owner's board: the caller's own stream, so someone else's project id is simply unknown there. */
export function projectsWriteRoutes(app: AppContext) {
  const commands = board(app);
  const own = (input: { principal: { userId: string } | null }) => input.principal!.userId;

  return [
    route<CreateProjectBody>(findOperation(projectOperations, 'post', '/projects'), async (input) => {
      const result = await commands.run(input, own(input), {
        type: 'CreateProject', projectId: deterministicUuid(input.commandId, 'project'), listId: deterministicUuid(input.commandId, 'list'),
        name: input.body.name, color: input.body.color ?? null,
      });
      const project = decided(result.events, 'project.created');
      return withEtag(201, { project, lists: [decided(result.events, 'list.created')] }, project.version, result.position);
    }),

    route<UpdateProjectBody, unknown, IdParams>(findOperation(projectOperations, 'patch', '/projects/{id}'), async (input) => {
      const result = await commands.run(input, own(input), {
        type: 'UpdateProject', projectId: input.params.id, changes: input.body, expectedVersions: ifMatch(input),
      });
      const project = lastOf<Project>(result.events, 'project.') ?? (await commands.state(own(input))).projects.get(input.params.id);
      if (!project) throw notFound('Project');
      return withEtag(200, { project }, project.version, result.position);
    }),

    route<unknown, unknown, IdParams>(findOperation(projectOperations, 'delete', '/projects/{id}'), async (input) => {
      const result = await commands.run(input, own(input), { type: 'DeleteProject', projectId: input.params.id, expectedVersions: ifMatch(input) });
      return { status: 204, position: result.position };
    }),

    route<z.infer<typeof CreateListBody>, unknown, IdParams>(findOperation(projectOperations, 'post', '/projects/{id}/lists'), async (input) => {
      const result = await commands.run(input, own(input), {
        type: 'CreateList', projectId: input.params.id, listId: deterministicUuid(input.commandId, 'list'),
        name: input.body.name ?? DEFAULT_LIST_NAME,
      });
      const list: TaskList = decided(result.events, 'list.created');
      return { status: 201, body: { list }, position: result.position };
    }),
  ];
}
