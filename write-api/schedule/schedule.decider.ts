/**
 * The Space schedule: one stream per Space (`space-<id>`) holding the Space, its calendars and their events, so
 * that time and resource conflicts are decided inside one consistency boundary.
 */
import type { DomainEvent } from '../../contracts/domain-events';
import { MAX_EVENT_DAYS, type Event } from '../../contracts/events';
import type { Calendar, Space } from '../../contracts/spaces';
import type { Decider } from '../../services/commands/decider';
import { ApiError, conflict, notFound, versionMismatch } from '../../services/errors';
import { checkRule } from '../../services/time/recurrence';
import {
  bookingOfCancelledEvent, decideBooking, evolveBooking, type BookingCommand, type BookingEvent, type BookingRecord,
} from './booking.rules';
import { findConflicts, ScheduleIndex } from './conflicts';

export interface ScheduleState {
  space: Space | null;
  calendars: Map<string, Calendar>;
  events: Map<string, Event>;
  /** The live events arranged for conflict checks. */
  index: ScheduleIndex;
  /** Bookings of the Space's calendars (booking.rules.ts). */
  bookings: Map<string, BookingRecord>;
  bookingByEvent: Map<string, string>;
}

export type EventFields = Omit<
  Event,
  'id' | 'spaceId' | 'status' | 'createdBy' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'version'
>;

export type ScheduleCommand =
  | { type: 'CreateSpace'; space: Space; calendar: Calendar }
  | { type: 'CreateCalendar'; actorId: string; calendar: Calendar }
  | { type: 'CreateEvent'; actorId: string; eventId: string; fields: EventFields; now: string }
  /** Planner blocks: all or nothing, refused when any overlaps a busy event of any calendar of the Space. */
  | { type: 'CreateEvents'; actorId: string; events: Array<{ eventId: string; fields: EventFields }>; now: string }
  | {
      type: 'UpdateEvent';
      actorId: string;
      eventId: string;
      changes: Partial<EventFields>;
      expectedVersions?: number[];
      now: string;
    }
  | { type: 'CancelEvent'; actorId: string; eventId: string; expectedVersions?: number[]; now: string }
  | { type: 'AnswerInvitation'; userId: string; email: string; eventId: string; answer: 'yes' | 'no' | 'maybe'; now: string }
  | BookingCommand;

type ScheduleEvent =
  | Extract<DomainEvent, { type: 'space.created' | 'calendar.created' | 'event.created' | 'event.updated' | 'event.cancelled' }>
  | BookingEvent;

const canUse = (state: ScheduleState, userId: string) => state.space !== null && state.space.ownerId === userId;

function requireMember(state: ScheduleState, userId: string): Space {
  if (!state.space || !canUse(state, userId)) throw notFound('Space');
  return state.space;
}

function requireEvent(state: ScheduleState, actorId: string, eventId: string): Event {
  const event = state.events.get(eventId);
  if (!event || event.status === 'cancelled' || !canUse(state, actorId)) throw notFound('Event');
  return event;
}

function checkVersion(event: Event, allowed: number[] | undefined): void {
  if (allowed !== undefined && !allowed.includes(event.version)) throw versionMismatch();
}

function checkFields(state: ScheduleState, candidate: Event): void {
  if (!state.calendars.has(candidate.calendarId)) throw notFound('Calendar');
  if (Date.parse(candidate.endsAt) <= Date.parse(candidate.startsAt)) {
    throw new ApiError(400, 'invalid_request', 'endsAt must be after startsAt', {
      issues: [{ path: 'endsAt', message: 'must be after startsAt' }],
    });
  }
  // A partial update is checked here against the stored start (a full body already was, by the route machinery).
  if (Date.parse(candidate.endsAt) - Date.parse(candidate.startsAt) > MAX_EVENT_DAYS * 86_400_000) {
    throw new ApiError(400, 'invalid_request', `endsAt must be at most ${MAX_EVENT_DAYS} days after startsAt`, {
      issues: [{ path: 'endsAt', message: `at most ${MAX_EVENT_DAYS} days after startsAt` }],
    });
  }
  if (candidate.recurrenceRule) {
    const problem = checkRule(candidate);
    if (problem) {
      throw new ApiError(400, 'invalid_request', `recurrenceRule ${problem}`, {
        issues: [{ path: 'recurrenceRule', message: problem }],
      });
    }
  }
}

function validate(state: ScheduleState, candidate: Event, now: string): void {
  checkFields(state, candidate);
  const found = findConflicts(candidate, state.index, Date.parse(now));
  if (found.resource.length) {
    throw conflict('resource_conflict', 'A resource of this event is already booked at that time', {
      conflicts: found.resource,
    });
  }
  if (found.time.length) {
    throw conflict('time_conflict', 'The event overlaps another busy event in this calendar', {
      conflicts: found.time,
    });
  }
}

function newEvent(state: ScheduleState, space: Space, eventId: string, fields: EventFields, actorId: string, now: string): Event {
  if (state.events.has(eventId)) throw conflict('duplicate_id', 'An event with this id exists');
  return {
    id: eventId, spaceId: space.id, ...fields, status: 'confirmed', createdBy: actorId, createdAt: now, updatedAt: now,
    deletedAt: null, version: 1,
  };
}

/** Every time conflict of the candidates with busy events of the Space, each overlap named once. */
function spaceConflicts(state: ScheduleState, candidates: Event[], now: string) {
  const found = new Map<string, { id: string; startsAt: string; endsAt: string }>();
  for (const candidate of candidates) {
    checkFields(state, candidate);
    for (const c of findConflicts(candidate, state.index, Date.parse(now), 'space').time) found.set(`${c.id} ${c.startsAt}`, c);
  }
  return [...found.values()].sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.id.localeCompare(b.id));
}

export const scheduleDecider: Decider<ScheduleCommand, ScheduleEvent, ScheduleState> = {
  initialState: () => ({
    space: null, calendars: new Map(), events: new Map(), index: new ScheduleIndex(), bookings: new Map(), bookingByEvent: new Map(),
  }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateSpace':
        if (state.space) return [];
        return [
          { type: 'space.created', data: { space: command.space } },
          { type: 'calendar.created', data: { calendar: command.calendar } },
        ];
      case 'CreateCalendar':
        requireMember(state, command.actorId);
        return [{ type: 'calendar.created', data: { calendar: command.calendar } }];
      case 'CreateEvent': {
        const space = requireMember(state, command.actorId);
        const event = newEvent(state, space, command.eventId, command.fields, command.actorId, command.now);
        validate(state, event, command.now);
        return [{ type: 'event.created', data: event }];
      }
      case 'CreateEvents': {
        const space = requireMember(state, command.actorId);
        const events = command.events.map((e) => newEvent(state, space, e.eventId, e.fields, command.actorId, command.now));
        const conflicts = spaceConflicts(state, events, command.now);
        if (conflicts.length) throw conflict('time_conflict', 'A block overlaps a busy event; nothing was written', { conflicts });
        return events.map((data) => ({ type: 'event.created' as const, data }));
      }
      case 'UpdateEvent': {
        const current = requireEvent(state, command.actorId, command.eventId);
        checkVersion(current, command.expectedVersions);
        const next: Event = { ...current, ...command.changes, updatedAt: command.now, version: current.version + 1 };
        validate(state, next, command.now);
        return [{ type: 'event.updated', data: next }];
      }
      case 'CancelEvent': {
        const current = requireEvent(state, command.actorId, command.eventId);
        checkVersion(current, command.expectedVersions);
        const cancelled: Event = {
          ...current,
          status: 'cancelled',
          updatedAt: command.now,
          deletedAt: command.now,
          version: current.version + 1,
        };
        return [{ type: 'event.cancelled', data: cancelled }, ...bookingOfCancelledEvent(state, current.id, command.now)];
      }
      case 'AnswerInvitation': {
        const current = state.events.get(command.eventId);
        const email = command.email.toLowerCase();
        const index = current?.attendees.findIndex((a) => a.userId === command.userId || a.email.toLowerCase() === email);
        if (!current || current.status === 'cancelled' || index === undefined || index < 0) throw notFound('Event');
        const attendees = current.attendees.map((a, i) =>
          i === index ? { ...a, userId: command.userId, response: command.answer } : a,
        );
        const next: Event = { ...current, attendees, updatedAt: command.now, version: current.version + 1 };
        return [{ type: 'event.updated', data: next }];
      }
      case 'BookSlot':
      case 'RescheduleBooking':
      case 'CancelBooking':
        return decideBooking(command, state);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'space.created':
        state.space = event.data.space;
        break;
      case 'calendar.created':
        state.calendars.set(event.data.calendar.id, event.data.calendar);
        break;
      case 'event.created':
      case 'event.updated':
      case 'event.cancelled': {
        state.events.set(event.data.id, event.data);
        state.index.put(event.data);
        break;
      }
      default:
        evolveBooking(state, event);
    }
    return state;
  },
};

export const scheduleStream = (spaceId: string) => `space-${spaceId}`;
