/** Profiles by id, email and username: what /me, login and attendee lookups read. */
import type { DomainEventData } from '../contracts/domain-events';
import { projection } from './projection';

export const ACCOUNTS = 'accounts';

export const accountsProjection = projection({
  name: ACCOUNTS,
  version: 2, // v2: erasure stamps on every document
  collections: { users: { indexes: [['_emailLower'], ['username']] } },
  handles: ['user.registered', 'user.profile_updated'],
  async apply(e, docs) {
    const { user } = e.data as DomainEventData<'user.profile_updated'>;
    const extra =
      e.type === 'user.registered' ? { _passwordHash: (e.data as DomainEventData<'user.registered'>).passwordHash } : {};
    const existing = await docs('users').get(user.id);
    await docs('users').putIfNewer({
      ...existing,
      ...user,
      ...extra,
      _id: user.id,
      _pos: e.position,
      _emailLower: user.email.toLowerCase(),
    });
  },
});
