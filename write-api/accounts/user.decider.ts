import type { DomainEvent, UserRecord } from '../../contracts/domain-events';
import type { Decider } from '../../services/commands/decider';
import { conflict, notFound } from '../../services/errors';

export type UserState = { user: UserRecord | null; passwordHash: string | null };
export type UserCommand =
  | { type: 'Register'; user: UserRecord; passwordHash: string }
  | { type: 'UpdateProfile'; changes: Partial<Omit<UserRecord, 'id' | 'email' | 'createdAt'>>; now: string };
type UserEvent = Extract<DomainEvent, { type: 'user.registered' | 'user.profile_updated' }>;

export const userDecider: Decider<UserCommand, UserEvent, UserState> = {
  initialState: () => ({ user: null, passwordHash: null }),
  decide(command, state) {
    if (command.type === 'Register') {
      if (state.user) throw conflict('email_taken', 'An account with this email exists');
      return [{ type: 'user.registered', data: { user: command.user, passwordHash: command.passwordHash } }];
    }
    if (!state.user) throw notFound('User');
    const user: UserRecord = {
      ...state.user,
      ...command.changes,
      enabledModules: { ...state.user.enabledModules, ...command.changes.enabledModules },
      preferences: { ...state.user.preferences, ...command.changes.preferences },
      updatedAt: command.now,
    };
    return [{ type: 'user.profile_updated', data: { user } }];
  },
  evolve(state, event) {
    if (event.type === 'user.registered') return { user: event.data.user, passwordHash: event.data.passwordHash };
    return { ...state, user: event.data.user };
  },
};

export const userStream = (userId: string) => `user-${userId}`;
