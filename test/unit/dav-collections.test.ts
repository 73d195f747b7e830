/** Which calendars a CalDAV user gets as collections, and which of them they may write. */
import { collectionsOf } from '../../services/dav/collections';
import type { ReadModels } from '../../projections/read-models';

const calendar = (id: string, spaceId: string, extra: Record<string, unknown> = {}) => ({
  _id: id, id, spaceId, name: id, color: '#3366ff', isDefault: false, createdAt: `2030-01-01T00:00:0${id.slice(-1)}Z`, updatedAt: '2030-01-01T00:00:00Z', deletedAt: null, ...extra,
});

/** The schedule read model of one user: their Space with two calendars (one a subscription), three shared with them. */
const models = {
  docs: async () => (name: string) => ({
    find: async (filter: Record<string, unknown>) => {
      if (name === 'memberships') return [{ _id: 'm', spaceId: 'own', userId: 'u', ownerId: 'u', role: 'owner' }];
      if (name === 'calendarMembers') {
        return [['c3', 'freeBusyReader'], ['c4', 'reader'], ['c5', 'writer']].map(([calendarId, role]) => ({
          _id: `${calendarId}:u`, calendarId, spaceId: 'other', calendarOwnerId: 'o', userId: 'u', role, deletedAt: null,
        }));
      }
      if (name === 'calendars' && 'spaceId' in filter) return [calendar('c1', 'own'), calendar('c2', 'own', { source: { url: 'https://example.com/c2.ics' } })];
      if (name === 'calendars') return [calendar('c3', 'other'), calendar('c4', 'other'), calendar('c5', 'other')];
      return [];
    },
    get: async () => null,
  }),
} as unknown as ReadModels;

describe('collectionsOf', () => {
  it('lists the calendars whose events the user sees, writable for owners and writers unless read-only', async () => {
    const listed = (await collectionsOf(models, 'u')).map((c) => [c.calendar.id, c.role, c.writable]);
    expect(listed).toEqual([
      ['c1', 'owner', true],
      ['c2', 'owner', false], // a subscription (it has a source)
      ['c4', 'reader', false],
      ['c5', 'writer', true],
    ]);
  });
});
