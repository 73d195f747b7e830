/**
 * A push token is registered once per user: a claim stream per (user, token identity) names the device that holds
 * it. The first claim appends to a stream that must not exist, so concurrent registrations of one token, in one
 * process or many, agree on a single device. Removing the device releases the claim.
 */
import type { DomainEvent } from '../../contracts/domain-events';
import type { Decider } from '../../services/commands/decider';

export type PushTokenClaimState = { deviceId: string | null };
export type PushTokenClaimCommand =
  | { type: 'ClaimPushToken'; userId: string; deviceId: string; tokenKey: string }
  | { type: 'ReleasePushToken'; userId: string; deviceId: string; tokenKey: string };
type ClaimEvent = Extract<DomainEvent, { type: 'push_token.claimed' | 'push_token.released' }>;

export const pushTokenClaimDecider: Decider<PushTokenClaimCommand, ClaimEvent, PushTokenClaimState> = {
  initialState: () => ({ deviceId: null }),
  decide(command, state) {
    const data = { userId: command.userId, deviceId: command.deviceId, tokenKey: command.tokenKey };
    if (command.type === 'ClaimPushToken') return state.deviceId ? [] : [{ type: 'push_token.claimed', data }];
    return state.deviceId === command.deviceId ? [{ type: 'push_token.released', data }] : [];
  },
  evolve(_state, event) {
    return { deviceId: event.type === 'push_token.claimed' ? event.data.deviceId : null };
  },
};

export const pushTokenClaimStream = (tokenKey: string) => `push-token-${tokenKey}`;
