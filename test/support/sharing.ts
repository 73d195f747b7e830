/**
 * Two users in one Space. No endpoint adds a member to a Space yet (organization members: addendum part two), so
 * this writes the membership the schedule projection keeps for each member of a Space into that read model, beside
 * the owner's own: what assignment (and everything else that reads memberships) sees once members can be added.
 */
import { SCHEDULE } from '../../projections/schedule.projection';
import { signUp, type Client, type TestService } from './service';

export async function shareASpace(svc: TestService, owner: Client, member: Client): Promise<string> {
  const created = await owner.call('POST', '/spaces', { name: 'Team' });
  if (created.status !== 201) throw new Error(`space: ${created.status} ${JSON.stringify(created.body)}`);
  const spaceId = created.body.space.id as string;
  const memberships = (await svc.service.context.readModels.docs(SCHEDULE))('memberships');
  const position = Number(created.headers.get('x-calendar-position'));
  await memberships.putIfNewer({ _id: `${spaceId}:${member.userId}`, _pos: position, spaceId, userId: member.userId, role: 'member' });
  return spaceId;
}

/** A new user who shares a Space with `owner`: someone `owner` may give tasks to. */
export async function teammateOf(svc: TestService, owner: Client, profile: Record<string, unknown> = {}): Promise<Client> {
  const teammate = await signUp(svc.base, profile);
  await shareASpace(svc, owner, teammate);
  return teammate;
}
