/**
 * Uniqueness by reservation: one stream per claimed value (`email-<mac>`, `username-<mac>`: an HMAC under the
 * service's claim secret, so no stream id gives the value away, and no dictionary of hashes can). The first claim
 * appends to a stream that must not exist; a released value (or the value of an erased user) can be claimed again.
 */
import type { DomainEvent } from '../../contracts/domain-events';
import type { Decider } from '../../services/commands/decider';
import { conflict } from '../../services/errors';
import { createHmac } from 'node:crypto';

export type ClaimKind = 'email' | 'username';
export type ClaimState = { holder: string | null };
export type ClaimCommand =
  | { type: 'Claim'; kind: ClaimKind; value: string; userId: string }
  | { type: 'Release'; kind: ClaimKind; value: string; userId: string };
type ClaimEvent = Extract<DomainEvent, { type: 'email.claimed' | 'username.claimed' | 'username.released' }>;

const takenCode = { email: 'email_taken', username: 'username_taken' } as const;

export const claimDecider: Decider<ClaimCommand, ClaimEvent, ClaimState> = {
  initialState: () => ({ holder: null }),
  decide(command, state) {
    if (command.type === 'Claim') {
      if (state.holder === command.userId) return [];
      if (state.holder) throw conflict(takenCode[command.kind], `This ${command.kind} is already taken`);
      return command.kind === 'email'
        ? [{ type: 'email.claimed', data: { email: command.value, userId: command.userId } }]
        : [{ type: 'username.claimed', data: { username: command.value, userId: command.userId } }];
    }
    if (state.holder !== command.userId || command.kind !== 'username') return [];
    return [{ type: 'username.released', data: { username: command.value, userId: command.userId } }];
  },
  evolve(_state, event) {
    return { holder: event.type === 'username.released' ? null : event.data.userId };
  },
};

export const claimStream = (secret: string, kind: ClaimKind, value: string) =>
  `${kind}-${createHmac('sha256', secret).update(`${kind}:${kind === 'email' ? value.toLowerCase() : value}`).digest('base64url')}`;
