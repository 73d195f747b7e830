import { claimDecider } from '../../write-api/accounts/claim.decider';
import { userDecider } from '../../write-api/accounts/user.decider';
import { given } from '../support/given';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
const NOW = '2026-11-22T00:00:00.000Z';

describe('claim decider', () => {
  it('claims a free value, is idempotent for the holder, refuses others', () => {
    given(claimDecider, []).when({ type: 'Claim', kind: 'email', value: 'a@x.io', userId: A }).then([{ type: 'email.claimed' }]);
    const claimed = [{ type: 'email.claimed' as const, data: { email: 'a@x.io', userId: A } }];
    given(claimDecider, claimed).when({ type: 'Claim', kind: 'email', value: 'a@x.io', userId: A }).then([]);
    given(claimDecider, claimed).when({ type: 'Claim', kind: 'email', value: 'a@x.io', userId: B }).thenThrows('email_taken');
  });

  it('frees a released username for someone else', () => {
    const h = [
      { type: 'username.claimed' as const, data: { username: 'ann', userId: A } },
      { type: 'username.released' as const, data: { username: 'ann', userId: A } },
    ];
    given(claimDecider, h).when({ type: 'Claim', kind: 'username', value: 'ann', userId: B }).then([{ type: 'username.claimed' }]);
    given(claimDecider, h.slice(0, 1)).when({ type: 'Claim', kind: 'username', value: 'ann', userId: B }).thenThrows('username_taken');
  });
});

describe('user decider', () => {
  const user = {
    id: A, email: 'a@x.io', name: 'Ann', username: 'ann', timeZone: 'UTC', weekStartsOn: 1,
    enabledModules: { tasks: true }, preferences: { theme: 'dark' }, personalSpaceId: A, defaultCalendarId: B,
    createdAt: NOW, updatedAt: NOW,
  };
  const registered = { type: 'user.registered' as const, data: { user, passwordHash: 'h' } };

  it('registers once', () => {
    given(userDecider, []).when({ type: 'Register', user, passwordHash: 'h' }).then([{ type: 'user.registered' }]);
    given(userDecider, [registered]).when({ type: 'Register', user, passwordHash: 'h' }).thenThrows('email_taken');
  });

  it('merges modules and preferences key by key', () => {
    given(userDecider, [registered])
      .when({ type: 'UpdateProfile', changes: { name: 'Anna', preferences: { lang: 'de' }, enabledModules: { goals: false } }, now: 'later' })
      .then([{
        type: 'user.profile_updated',
        data: { user: { name: 'Anna', preferences: { theme: 'dark', lang: 'de' }, enabledModules: { tasks: true, goals: false }, updatedAt: 'later' } } as never,
      }]);
  });

  it('cannot update a user that does not exist', () => {
    given(userDecider, []).when({ type: 'UpdateProfile', changes: {}, now: NOW }).thenThrows('not_found');
  });
});
