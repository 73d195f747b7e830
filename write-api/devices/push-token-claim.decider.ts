/**
 * A push token is held by one device of one user: a claim stream per token identity names that device and its
 * user. The first claim appends to a stream that must not exist, so concurrent registrations of one token, in one
 * process or many, by one user or several, agree on a single device. Removing the device releases the claim.
 */
import type { DomainEvent } from '../../contracts/domain-events';
import type { Decider } from '../../services/commands/decider';

export type PushTokenClaimState = { deviceId: string | null; userId: string | null };
export type PushTokenClaimCommand =
  | { type: 'ClaimPushToken'; userId: string; deviceId: string; tokenKey: string }
  | { type: 'ReleasePushToken'; deviceId: string; tokenKey: string };
type ClaimEvent = Extract<DomainEvent, { type: 'push_token.claimed' | 'push_token.released' }>;

export const pushTokenClaimDecider: Decider<PushTokenClaimCommand, ClaimEvent, PushTokenClaimState> = {
  initialState: () => ({ deviceId: null, userId: null }),
  decide(command, state) {
    if (command.type === 'ClaimPushToken') {
      return state.deviceId ? [] : [{ type: 'push_token.claimed', data: { userId: command.userId, deviceId: command.deviceId, tokenKey: command.tokenKey } }];
    }
    if (state.deviceId !== command.deviceId || !state.userId) return [];
    return [{ type: 'push_token.released', data: { userId: state.userId, deviceId: command.deviceId, tokenKey: command.tokenKey } }];
  },
  evolve(_state, event) {
    return event.type === 'push_token.claimed' ? { deviceId: event.data.deviceId, userId: event.data.userId } : { deviceId: null, userId: null };
  },
};

export const pushTokenClaimStream = (tokenKey: string) => `push-token-${tokenKey}`;
