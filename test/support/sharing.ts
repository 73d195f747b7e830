/** Two users in one organization (a shared Space), through the API: what assignment and sharing tests start from. */
import { signUp, type Client, type TestService } from './service';

export async function shareASpace(owner: Client, member: Client, role: 'member' | 'admin' = 'member'): Promise<string> {
  const created = await owner.call('POST', '/organizations', { name: 'Team' });
  if (created.status !== 201) throw new Error(`organization: ${created.status} ${JSON.stringify(created.body)}`);
  const spaceId = created.body.organization.id as string;
  const added = await owner.call('POST', `/organizations/${spaceId}/members`, { email: member.email, role });
  if (added.status !== 201) throw new Error(`member: ${added.status} ${JSON.stringify(added.body)}`);
  return spaceId;
}

/** A new user who shares a Space with `owner`: someone `owner` may give tasks to. */
export async function teammateOf(svc: TestService, owner: Client, profile: Record<string, unknown> = {}): Promise<Client> {
  const teammate = await signUp(svc.base, profile);
  await shareASpace(owner, teammate);
  return teammate;
}
