/**
 * A calendar's feed address: one stream per calendar (`calendar-feed-<id>`). Issuing replaces the address (the
 * previous token's hash is named, so the read model retires it at once); revoking ends it. Only hashes of tokens are
 * kept. Who may do either is checked by the route (the calendar must be the caller's).
 */
import type { DomainEvent } from '../../contracts/domain-events';
import type { Decider } from '../../services/commands/decider';
import { notFound } from '../../services/errors';
import { sha256 } from '../../services/ids';

export interface FeedState {
  current: { tokenHash: string; createdAt: string } | null;
  generation: number;
}

export type FeedCommand =
  | { type: 'IssueFeed'; calendarId: string; spaceId: string; tokenHash: string; now: string }
  | { type: 'RevokeFeed'; calendarId: string; spaceId: string; now: string };

type FeedEvent = Extract<DomainEvent, { type: 'calendar.feed_issued' | 'calendar.feed_revoked' }>;

export const feedDecider: Decider<FeedCommand, FeedEvent, FeedState> = {
  initialState: () => ({ current: null, generation: 0 }),

  decide(command, state) {
    const { calendarId, spaceId } = command;
    if (command.type === 'IssueFeed') {
      return [{
        type: 'calendar.feed_issued',
        data: {
          calendarId, spaceId, tokenHash: command.tokenHash, previousTokenHash: state.current?.tokenHash ?? null,
          generation: state.generation + 1, createdAt: command.now,
        },
      }];
    }
    if (!state.current) throw notFound('Feed');
    return [{
      type: 'calendar.feed_revoked',
      data: { calendarId, spaceId, tokenHash: state.current.tokenHash, generation: state.generation, revokedAt: command.now },
    }];
  },

  evolve(state, event) {
    if (event.type === 'calendar.feed_issued') {
      return { current: { tokenHash: event.data.tokenHash, createdAt: event.data.createdAt }, generation: event.data.generation };
    }
    return { ...state, current: null };
  },
};

export const feedStream = (calendarId: string) => `calendar-feed-${calendarId}`;

/** What is kept of a feed token, and what GET /ical/{token}.ics looks it up by. */
export const feedTokenHash = (token: string) => sha256(`ical-feed:${token}`);
