/** Organizations: POST /organizations (a shared Space the caller owns) and POST /organizations/{id}/members. */
import type { z } from 'zod';
import { findOperation } from '../../contracts/operation';
import {
  organizationOperations, type AddOrganizationMemberBody, type CreateOrganizationBody, type Organization, type SpaceMemberRecord,
} from '../../contracts/organizations';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { scheduleDecider, scheduleStream } from '../schedule/schedule.decider';
import { personByEmail } from '../spaces/person';
import { createSharedSpace } from '../spaces/spaces.routes';

const memberView = ({ spaceId, userId, email, name, role, createdAt }: SpaceMemberRecord) =>
  ({ organizationId: spaceId, userId, email, name, role, createdAt });

export function organizationsWriteRoutes(app: AppContext) {
  return [
    route<z.infer<typeof CreateOrganizationBody>>(findOperation(organizationOperations, 'post', '/organizations'), async (input) => {
      const { space, position } = await createSharedSpace(app, input, input.body.name);
      const organization: Organization = { id: space.id, name: space.name, role: 'owner', spaceIds: [space.id], createdAt: space.createdAt };
      return { status: 201, body: { organization }, position };
    }),

    route<AddOrganizationMemberBody, unknown, { id: string }>(findOperation(organizationOperations, 'post', '/organizations/{id}/members'), async (input) => {
      const spaceId = input.params.id;
      const person = await personByEmail(app, input.body.email);
      const result = await app.commands.handle(scheduleStream(spaceId), scheduleDecider, {
        type: 'AddSpaceMember', actorId: input.principal!.userId, person, role: input.body.role, now: new Date().toISOString(),
      }, { userId: input.principal!.userId, commandId: input.commandId, correlationId: input.requestId, spaceId });
      const added = result.events.find((e) => e.type === 'space.member.added')?.data as SpaceMemberRecord | undefined;
      // The same role again changes nothing: the member as they are.
      const member = added ?? (await app.commands.load(scheduleStream(spaceId), scheduleDecider)).state.spaceMembers.get(person!.userId);
      if (!member) throw notFound('Member');
      return { status: 201, body: { member: memberView(member) }, position: result.position };
    }),
  ];
}
