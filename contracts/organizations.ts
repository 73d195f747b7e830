/**
 * Organizations (addendum, "Scheduling with other people"). An organization is a shared Space (same id): its creator
 * owns it, admins add members, and every member belongs to the Space, so its calendars and task assignment work
 * between them. Personal Spaces are never organizations.
 */
import { z } from 'zod';
import type { CalendarRole } from './calendar-members';
import { DateTime, Email, ErrorEnvelope, NonBlankText, Uuid } from './common';
import * as examples from './examples';
import { op } from './operation';
import { NextPageToken, PageQuery } from './paging';

/** At most this many members in one organization (its owner included). */
export const MAX_ORGANIZATION_MEMBERS = 1000;

export const MemberRole = z.enum(['member', 'admin']).meta({
  id: 'OrganizationMemberRole',
  description: '`admin`: may add members (and calendars); `member`: belongs to it. Both are writers of its calendars.',
});
export type MemberRole = z.infer<typeof MemberRole>;

/** The role every member and admin of an organization has on its calendars (its owner: `owner`). */
export const ORGANIZATION_CALENDAR_ROLE: CalendarRole = 'writer';

const organizationExample = {
  id: 'c2d7e5a1-4b3f-4e8a-9d6c-1f2e3a4b5c6d', name: 'Design team', role: 'owner',
  spaceIds: ['c2d7e5a1-4b3f-4e8a-9d6c-1f2e3a4b5c6d'], createdAt: '2031-04-20T10:00:00.000Z',
};

export const Organization = z
  .object({
    id: Uuid.describe('The id of the shared Space it stands for'),
    name: z.string(),
    role: z.enum(['owner', 'admin', 'member']).describe('The caller\'s role'),
    spaceIds: z.array(Uuid).describe('The Spaces of the organization'),
    createdAt: DateTime,
  })
  .meta({ id: 'Organization', examples: [organizationExample] });
export type Organization = z.infer<typeof Organization>;

export const OrganizationList = z
  .object({ organizations: z.array(Organization), nextPageToken: NextPageToken })
  .meta({ id: 'OrganizationList', examples: [{ organizations: [organizationExample], nextPageToken: null }] });

export const CreateOrganizationBody = z
  .strictObject({ name: NonBlankText(200) })
  .meta({ id: 'CreateOrganizationBody', examples: [{ name: 'Design team' }] });

export const OrganizationMember = z
  .object({
    organizationId: Uuid,
    userId: Uuid,
    email: z.string(),
    name: z.string(),
    role: MemberRole,
    createdAt: DateTime,
  })
  .meta({
    id: 'OrganizationMember',
    examples: [{
      organizationId: organizationExample.id, userId: examples.ids.otherUser, email: 'grace@example.com', name: 'Grace Hopper',
      role: 'member', createdAt: examples.at.created,
    }],
  });
export type OrganizationMember = z.infer<typeof OrganizationMember>;

/** A member as the Space stream records it (the organization is the Space); `userId` is the member (sealing). */
export const SpaceMemberRecord = z.object({
  spaceId: Uuid, userId: Uuid, email: z.string(), name: z.string(), role: MemberRole, addedBy: Uuid, createdAt: DateTime,
});
export type SpaceMemberRecord = z.infer<typeof SpaceMemberRecord>;

export const AddOrganizationMemberBody = z
  .strictObject({ email: Email.describe('The email of a user of this service'), role: MemberRole })
  .meta({ id: 'AddOrganizationMemberBody', examples: [{ email: 'grace@example.com', role: 'member' }] });
export type AddOrganizationMemberBody = z.infer<typeof AddOrganizationMemberBody>;

const notFound = {
  description: 'No organization the caller belongs to (`not_found`), or no user with that email',
  schema: ErrorEnvelope,
};

export const organizationOperations = [
  op({
    method: 'get', path: '/organizations', tag: 'Organizations', summary: 'Organizations the caller belongs to',
    description: 'Each shared Space the caller belongs to is an organization of that one Space (same id); personal '
      + 'Spaces are not organizations. A page may hold fewer than `limit` items while `nextPageToken` is set.',
    query: PageQuery,
    responses: { 200: { description: 'One page of organizations', schema: OrganizationList } },
  }),
  op({
    method: 'post', path: '/organizations', tag: 'Organizations', summary: 'Create an organization',
    description: 'A new shared Space (with a default calendar) that the caller owns; the caller is its first admin.',
    body: CreateOrganizationBody,
    responses: {
      201: { description: 'Created', schema: z.object({ organization: Organization }).meta({ id: 'OrganizationResponse' }) },
    },
  }),
  op({
    method: 'post', path: '/organizations/{id}/members', tag: 'Organizations', summary: 'Add a member or admin',
    description: 'By the owner or an admin. The person (a user of this service, by email) then lists the organization in '
      + 'GET /organizations, sees its calendars, and may be given tasks by the other members. Adding a member again sets '
      + `their role. At most ${MAX_ORGANIZATION_MEMBERS} members (409 \`too_many_members\`). The owner keeps their role (409 \`already_owner\`). `
      + 'An email that belongs to no user is 404, as an unknown organization is.',
    params: z.object({ id: Uuid }), body: AddOrganizationMemberBody,
    responses: {
      201: { description: 'The member', schema: z.object({ member: OrganizationMember }).meta({ id: 'OrganizationMemberResponse' }) },
      403: { description: '`forbidden`: the caller is a member but not an admin', schema: ErrorEnvelope },
      404: notFound,
      409: { description: '`too_many_members`; `already_owner` (the person is the organization\'s owner)', schema: ErrorEnvelope },
    },
  }),
];
