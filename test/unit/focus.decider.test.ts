/** The focus session machine of api-spec.md section 3, transition by transition, refused moves included. */
import type { FocusSessionRecord } from '../../contracts/focus';
import { focusView } from '../../contracts/focus';
import { focusDecider, type FocusCommand } from '../../write-api/focus/focus.decider';
import { given } from '../support/given';

const USER = '11111111-1111-4111-8111-111111111111';
const S1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const S2 = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const at = (minute: number, second = 0) => new Date(Date.UTC(2026, 10, 23, 9, minute, second)).toISOString();

const record = (overrides: Partial<FocusSessionRecord> = {}): FocusSessionRecord => ({
  id: S1, userId: USER, taskId: null, eventId: null, goalId: null, label: 'Report', plannedMinutes: 50,
  status: 'running', startedAt: at(0), pausedAt: null, stoppedAt: null, pausedSeconds: 0, updatedAt: at(0), version: 1,
  ...overrides,
});

/** Expected data: only the fields a test is about. */
const part = (d: Partial<FocusSessionRecord>) => d as FocusSessionRecord;

const started = { type: 'focus.started' as const, data: record() };
const paused = { type: 'focus.paused' as const, data: record({ status: 'paused', pausedAt: at(10), updatedAt: at(10), version: 2 }) };
const resumed = { type: 'focus.resumed' as const, data: record({ pausedSeconds: 300, updatedAt: at(15), version: 3 }) };
const stopped = { type: 'focus.stopped' as const, data: record({ status: 'stopped', stoppedAt: at(20), updatedAt: at(20), version: 2 }) };

const start = (sessionId = S2, now = at(30)): FocusCommand => ({
  type: 'StartFocus', sessionId, userId: USER, now,
  links: { taskId: null, eventId: null, goalId: null, label: null, plannedMinutes: null },
});
const move = (type: 'PauseFocus' | 'ResumeFocus' | 'StopFocus', now: string, sessionId = S1, expectedVersions?: number[]): FocusCommand => ({
  type, sessionId, now, expectedVersions,
});

describe('focus decider: starting', () => {
  it('(none) -> running with POST /focus', () => {
    given(focusDecider, []).when(start(S1, at(0))).then([
      { type: 'focus.started', data: part({ id: S1, userId: USER, status: 'running', startedAt: at(0), pausedSeconds: 0, version: 1 }) },
    ]);
  });

  it('a running session refuses another start with focus_already_running, naming it', () => {
    const err = given(focusDecider, [started]).when(start()).thenThrows('focus_already_running');
    expect(err.status).toBe(409);
    expect(err.details).toEqual({ sessionId: S1 });
  });

  it('a paused session refuses another start too', () => {
    given(focusDecider, [started, paused]).when(start()).thenThrows('focus_already_running');
  });

  it('after a stop a new session starts', () => {
    given(focusDecider, [started, stopped]).when(start()).then([{ type: 'focus.started', data: part({ id: S2, status: 'running' }) }]);
  });
});

describe('focus decider: pause, resume, stop', () => {
  it('running -> paused with action=pause', () => {
    given(focusDecider, [started]).when(move('PauseFocus', at(10))).then([
      { type: 'focus.paused', data: part({ status: 'paused', pausedAt: at(10), pausedSeconds: 0, version: 2 }) },
    ]);
  });

  it('paused -> running with action=resume, the pause folded into pausedSeconds', () => {
    given(focusDecider, [started, paused]).when(move('ResumeFocus', at(15))).then([
      { type: 'focus.resumed', data: part({ status: 'running', pausedAt: null, pausedSeconds: 300, version: 3 }) },
    ]);
  });

  it('running -> stopped with action=stop', () => {
    given(focusDecider, [started]).when(move('StopFocus', at(20))).then([
      { type: 'focus.stopped', data: part({ status: 'stopped', stoppedAt: at(20), pausedSeconds: 0 }) },
    ]);
  });

  it('paused -> stopped with action=stop, the open pause counted as paused', () => {
    const [e] = given(focusDecider, [started, paused]).when(move('StopFocus', at(25))).then([
      { type: 'focus.stopped', data: part({ status: 'stopped', stoppedAt: at(25), pausedAt: null, pausedSeconds: 900 }) },
    ]);
    expect(focusView(e.data, Date.now()).elapsedMinutes).toBe(10);
  });

  it('refuses pausing a paused session with focus_not_running', () => {
    given(focusDecider, [started, paused]).when(move('PauseFocus', at(12))).thenThrows('focus_not_running');
  });

  it('refuses resuming a running session with focus_not_paused', () => {
    given(focusDecider, [started]).when(move('ResumeFocus', at(12))).thenThrows('focus_not_paused');
    given(focusDecider, [started, paused, resumed]).when(move('ResumeFocus', at(16))).thenThrows('focus_not_paused');
  });

  it.each(['PauseFocus', 'ResumeFocus', 'StopFocus'] as const)('refuses %s on a stopped session with focus_already_stopped', (type) => {
    given(focusDecider, [started, stopped]).when(move(type, at(40))).thenThrows('focus_already_stopped');
  });

  it.each(['PauseFocus', 'ResumeFocus', 'StopFocus'] as const)('%s of a session not in this stream is not_found', (type) => {
    given(focusDecider, [started]).when(move(type, at(12), S2)).thenThrows('not_found');
    given(focusDecider, []).when(move(type, at(12), S2)).thenThrows('not_found');
  });

  it('honours If-Match versions', () => {
    given(focusDecider, [started, paused]).when(move('ResumeFocus', at(15), S1, [1])).thenThrows('version_mismatch');
    given(focusDecider, [started, paused]).when(move('ResumeFocus', at(15), S1, [2])).then([{ type: 'focus.resumed' }]);
  });
});

describe('focus view: elapsed time excludes paused time', () => {
  it('while running, counts up to now minus earlier pauses', () => {
    expect(focusView(resumed.data, Date.parse(at(25))).elapsedSeconds).toBe(25 * 60 - 300);
    expect(focusView(resumed.data, Date.parse(at(25))).elapsedMinutes).toBe(20);
  });

  it('while paused, stands still at the pause', () => {
    expect(focusView(paused.data, Date.parse(at(11))).elapsedMinutes).toBe(10);
    expect(focusView(paused.data, Date.parse(at(59))).elapsedMinutes).toBe(10);
  });

  it('once stopped, is fixed at the stop', () => {
    expect(focusView(stopped.data, Date.parse(at(59))).elapsedMinutes).toBe(20);
  });
});
