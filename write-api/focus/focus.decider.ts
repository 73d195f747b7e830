/**
 * A person's focus sessions: one stream per user (`focus-<userId>`), so "at most one running or paused session"
 * holds inside one consistency boundary and two concurrent starts can never both succeed.
 */
import type { DomainEvent } from '../../contracts/domain-events';
import type { FocusSessionRecord } from '../../contracts/focus';
import type { Decider } from '../../services/commands/decider';
import { conflict, notFound, versionMismatch } from '../../services/errors';

export interface FocusState {
  /** The running or paused session. */
  current: FocusSessionRecord | null;
  stopped: Set<string>;
}

export type FocusLinks = Pick<FocusSessionRecord, 'taskId' | 'eventId' | 'goalId' | 'label' | 'plannedMinutes'>;

export type FocusCommand =
  | { type: 'StartFocus'; sessionId: string; userId: string; links: FocusLinks; now: string }
  | { type: 'PauseFocus' | 'ResumeFocus' | 'StopFocus'; sessionId: string; expectedVersions?: number[]; now: string };

type FocusEvent = Extract<DomainEvent, { type: 'focus.started' | 'focus.paused' | 'focus.resumed' | 'focus.stopped' }>;

const secondsBetween = (from: string, to: string) => Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000));

function requireCurrent(state: FocusState, sessionId: string, allowed: number[] | undefined): FocusSessionRecord {
  if (state.stopped.has(sessionId)) throw conflict('focus_already_stopped', 'This focus session has already stopped');
  const current = state.current;
  if (!current || current.id !== sessionId) throw notFound('Focus session');
  if (allowed !== undefined && !allowed.includes(current.version)) throw versionMismatch();
  return current;
}

/** The record after a move: paused time so far folded into `pausedSeconds`. */
function moved(session: FocusSessionRecord, status: FocusSessionRecord['status'], now: string): FocusSessionRecord {
  const pausedSeconds = session.pausedAt ? session.pausedSeconds + secondsBetween(session.pausedAt, now) : session.pausedSeconds;
  return {
    ...session,
    status,
    pausedSeconds,
    pausedAt: status === 'paused' ? now : null,
    stoppedAt: status === 'stopped' ? now : null,
    updatedAt: now,
    version: session.version + 1,
  };
}

export const focusDecider: Decider<FocusCommand, FocusEvent, FocusState> = {
  initialState: () => ({ current: null, stopped: new Set() }),

  decide(command, state) {
    if (command.type === 'StartFocus') {
      if (state.current) {
        throw conflict('focus_already_running', 'A focus session is already running or paused', { sessionId: state.current.id });
      }
      if (state.stopped.has(command.sessionId)) return [];
      const session: FocusSessionRecord = {
        id: command.sessionId, userId: command.userId, ...command.links, status: 'running', startedAt: command.now,
        pausedAt: null, stoppedAt: null, pausedSeconds: 0, updatedAt: command.now, version: 1,
      };
      return [{ type: 'focus.started', data: session }];
    }
    const current = requireCurrent(state, command.sessionId, command.expectedVersions);
    switch (command.type) {
      case 'PauseFocus':
        if (current.status !== 'running') throw conflict('focus_not_running', 'Only a running session can pause');
        return [{ type: 'focus.paused', data: moved(current, 'paused', command.now) }];
      case 'ResumeFocus':
        if (current.status !== 'paused') throw conflict('focus_not_paused', 'Only a paused session can resume');
        return [{ type: 'focus.resumed', data: moved(current, 'running', command.now) }];
      case 'StopFocus':
        return [{ type: 'focus.stopped', data: moved(current, 'stopped', command.now) }];
    }
  },

  evolve(state, event) {
    if (event.type === 'focus.stopped') {
      state.current = null;
      state.stopped.add(event.data.id);
    } else {
      state.current = event.data;
    }
    return state;
  },
};

export const focusStream = (userId: string) => `focus-${userId}`;
