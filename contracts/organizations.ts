/**
 * Organizations. This version has no organization management of its own: every shared Space the caller belongs to
 * is an organization of one Space (same id). Personal Spaces are never listed.
 */
import { z } from 'zod';
import { DateTime, Uuid } from './common';
import { op } from './operation';
import { NextPageToken, PageQuery } from './paging';

export const Organization = z
  .object({
    id: Uuid.describe('Today the id of the shared Space it stands for'),
    name: z.string(),
    role: z.enum(['owner', 'member']).describe('The caller\'s role'),
    spaceIds: z.array(Uuid).describe('The Spaces of the organization'),
    createdAt: DateTime,
  })
  .meta({
    id: 'Organization',
    examples: [{
      id: 'c2d7e5a1-4b3f-4e8a-9d6c-1f2e3a4b5c6d', name: 'Design team', role: 'owner',
      spaceIds: ['c2d7e5a1-4b3f-4e8a-9d6c-1f2e3a4b5c6d'], createdAt: '2031-04-20T10:00:00.000Z',
    }],
  });
export type Organization = z.infer<typeof Organization>;

export const OrganizationList = z
  .object({ organizations: z.array(Organization), nextPageToken: NextPageToken })
  .meta({
    id: 'OrganizationList',
    examples: [{
      organizations: [{
        id: 'c2d7e5a1-4b3f-4e8a-9d6c-1f2e3a4b5c6d', name: 'Design team', role: 'owner',
        spaceIds: ['c2d7e5a1-4b3f-4e8a-9d6c-1f2e3a4b5c6d'], createdAt: '2031-04-20T10:00:00.000Z',
      }],
      nextPageToken: null,
    }],
  });

export const organizationOperations = [
  op({
    method: 'get', path: '/organizations', tag: 'Organizations', summary: 'Organizations the caller belongs to',
    description: 'Each shared Space the caller belongs to is an organization of that one Space (same id); personal '
      + 'Spaces are not organizations. A page may hold fewer than `limit` items while `nextPageToken` is set.',
    query: PageQuery,
    responses: { 200: { description: 'One page of organizations', schema: OrganizationList } },
  }),
];
