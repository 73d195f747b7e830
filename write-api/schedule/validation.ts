/** What every event the schedule stores must satisfy: its fields on their own, and no conflict with the others. */
import { MAX_EVENT_DAYS, type Event } from '../../contracts/events';
import { ApiError, conflict, notFound } from '../../services/errors';
import { checkRule } from '../../services/time/recurrence';
import { findConflicts, type ScheduleIndex } from './conflicts';

/** What the checks read of the schedule. */
export interface ScheduleView {
  calendars: ReadonlyMap<string, unknown>;
  events: ReadonlyMap<string, Event>;
  index: ScheduleIndex;
}

const invalidField = (path: string, message: string, issue = message) =>
  new ApiError(400, 'invalid_request', `${path} ${message}`, { issues: [{ path, message: issue }] });

export function checkFields(state: ScheduleView, candidate: Event): void {
  if (!state.calendars.has(candidate.calendarId)) throw notFound('Calendar');
  if (Date.parse(candidate.endsAt) <= Date.parse(candidate.startsAt)) throw invalidField('endsAt', 'must be after startsAt');
  // A partial update is checked here against the stored start (a full body already was, by the route machinery).
  if (Date.parse(candidate.endsAt) - Date.parse(candidate.startsAt) > MAX_EVENT_DAYS * 86_400_000) {
    throw invalidField('endsAt', `must be at most ${MAX_EVENT_DAYS} days after startsAt`, `at most ${MAX_EVENT_DAYS} days after startsAt`);
  }
  if (candidate.recurrenceRule) {
    const problem = checkRule(candidate);
    if (problem) throw invalidField('recurrenceRule', problem);
  }
}

/** The candidate's fields, then its conflicts (`replacing`: stored events the same command changes). */
export function validate(state: ScheduleView, candidate: Event, now: string, replacing?: ReadonlyMap<string, Event>): void {
  checkFields(state, candidate);
  const found = findConflicts(candidate, state.index, Date.parse(now), 'calendar', replacing);
  if (found.resource.length) {
    throw conflict('resource_conflict', 'A resource of this event is already booked at that time', { conflicts: found.resource });
  }
  if (found.time.length) {
    throw conflict('time_conflict', 'The event overlaps another busy event in this calendar', { conflicts: found.time });
  }
}
