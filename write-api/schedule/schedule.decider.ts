/**
 * The Space schedule: one stream per Space (`space-<id>`) holding the Space, its calendars and their events, so
 * that time and resource conflicts are decided inside one consistency boundary; and who may use them (its
 * organization's members, the people its calendars are shared with: members.rules.ts).
 */
import type { DomainEvent } from '../../contracts/domain-events';
import type { Event, EventFields } from '../../contracts/events';
import type { Calendar, Space } from '../../contracts/spaces';
import type { Decider } from '../../services/commands/decider';
import { conflict, notFound, versionMismatch } from '../../services/errors';
import type { BookingHeld, BookingPart } from '../../contracts/bookings';
import { BookingIndex } from './booking-index';
import { decidePart, evolvePart, partsOfCancelledEvent, type PartCommand, type PartEvent } from './booking-parts.rules';
import { decideImport, type ImportCommand } from '../calendars/import.rules';
import { decideSubscription, requireNotReadOnly, type SubscriptionCommand, type SubscriptionEvent } from '../calendars/subscription.rules';
import {
  bookingsOfCancelledEvent, decideBooking, evolveBooking, type BookingCommand, type BookingEvent, type BookingRecord,
} from './booking.rules';
import { findConflicts, ScheduleIndex } from './conflicts';
import {
  decideMembers, evolveMembers, isAdmin, requireWriter, type MemberCommand, type MemberEvent, type MemberView,
} from './members.rules';
import { answered, decideOccurrence, invitedTo, keptExceptions, type OccurrenceCommand, type OccurrenceEvent } from './occurrence.rules';
import { checkFields, validate } from './validation';

export type { EventFields } from '../../contracts/events';

export interface ScheduleState extends MemberView {
  space: Space | null;
  calendars: Map<string, Calendar>;
  events: Map<string, Event>;
  /** The live events arranged for conflict checks. */
  index: ScheduleIndex;
  /** Bookings of the Space's calendars (booking.rules.ts), parts of collective bookings and holds (booking-parts.rules.ts). */
  bookings: Map<string, BookingRecord>;
  parts: Map<string, BookingPart>;
  holds: Map<string, BookingHeld>;
  bookingIndex: BookingIndex;
  bookingsByEvent: Map<string, Set<string>>;
}

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
  | OccurrenceCommand
  | BookingCommand
  | PartCommand
  | MemberCommand
  | ImportCommand
  | SubscriptionCommand;

type ScheduleEvent =
  | Extract<DomainEvent, { type: 'space.created' | 'calendar.created' | 'event.created' | 'event.updated' | 'event.cancelled' }>
  | OccurrenceEvent
  | BookingEvent
  | PartEvent
  | MemberEvent
  | SubscriptionEvent;

/** The Space, when the user may write on `calendarId` (404 Calendar, or 403 for a reader or a subscription, otherwise). */
function requireWritable(state: ScheduleState, userId: string, calendarId: string): Space {
  if (!state.space) throw notFound('Space');
  requireWriter(state, userId, calendarId, 'Calendar');
  requireNotReadOnly(state, calendarId);
  return state.space;
}

/** A live event the actor may change: 404 when they cannot see it, 403 for a reader of its calendar or a subscription's event. */
function requireEvent(state: ScheduleState, actorId: string, eventId: string): Event {
  const event = state.events.get(eventId);
  if (!event || event.status === 'cancelled') throw notFound('Event');
  requireWriter(state, actorId, event.calendarId, 'Event');
  requireNotReadOnly(state, event.calendarId);
  return event;
}

function checkVersion(event: Event, allowed: number[] | undefined): void {
  if (allowed !== undefined && !allowed.includes(event.version)) throw versionMismatch();
}

function newEvent(state: ScheduleState, space: Space, eventId: string, fields: EventFields, actorId: string, now: string): Event {
  if (state.events.has(eventId)) throw conflict('duplicate_id', 'An event with this id exists');
  return {
    id: eventId, spaceId: space.id, ...fields, exceptions: [], icalUid: null, icalRecurrenceId: null, status: 'confirmed', createdBy: actorId, createdAt: now,
    updatedAt: now, deletedAt: null, version: 1,
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
    space: null, calendars: new Map(), events: new Map(), index: new ScheduleIndex(), bookings: new Map(), parts: new Map(),
    holds: new Map(), bookingIndex: new BookingIndex(), bookingsByEvent: new Map(), calendarMembers: new Map(), spaceMembers: new Map(),
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
        if (!state.space || !isAdmin(state, command.actorId)) throw notFound('Space');
        return [{ type: 'calendar.created', data: { calendar: command.calendar } }];
      case 'CreateEvent': {
        const space = requireWritable(state, command.actorId, command.fields.calendarId);
        const event = newEvent(state, space, command.eventId, command.fields, command.actorId, command.now);
        validate(state, event, command.now);
        return [{ type: 'event.created', data: event }];
      }
      case 'CreateEvents': {
        if (!state.space) throw notFound('Space');
        const space = state.space;
        for (const e of command.events) requireWritable(state, command.actorId, e.fields.calendarId);
        const events = command.events.map((e) => newEvent(state, space, e.eventId, e.fields, command.actorId, command.now));
        const conflicts = spaceConflicts(state, events, command.now);
        if (conflicts.length) throw conflict('time_conflict', 'A block overlaps a busy event; nothing was written', { conflicts });
        return events.map((data) => ({ type: 'event.created' as const, data }));
      }
      case 'UpdateEvent': {
        const current = requireEvent(state, command.actorId, command.eventId);
        checkVersion(current, command.expectedVersions);
        // Moving it to another calendar of the Space: the actor must be able to write there too.
        if (command.changes.calendarId && command.changes.calendarId !== current.calendarId) {
          requireWritable(state, command.actorId, command.changes.calendarId);
        }
        const changed: Event = { ...current, ...command.changes, updatedAt: command.now, version: current.version + 1 };
        const next = { ...changed, exceptions: keptExceptions(changed, current.exceptions) };
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
        return [
          { type: 'event.cancelled', data: cancelled }, ...bookingsOfCancelledEvent(state, current.id, command.now), ...partsOfCancelledEvent(state, current.id),
        ];
      }
      case 'AnswerInvitation': {
        const current = state.events.get(command.eventId);
        const email = command.email.toLowerCase();
        const matches = (a: Event['attendees'][number]) => a.userId === command.userId || a.email.toLowerCase() === email;
        if (!current || current.status === 'cancelled' || !invitedTo(current, matches)) throw notFound('Event');
        const answer = answered(current, matches, (a) => ({ ...a, userId: command.userId, response: command.answer }));
        return [{ type: 'event.updated', data: { ...current, ...answer, updatedAt: command.now, version: current.version + 1 } }];
      }
      case 'ChangeOccurrence':
      case 'CancelOccurrence':
      case 'SplitSeries': {
        const series = requireEvent(state, command.actorId, command.eventId);
        checkVersion(series, command.expectedVersions);
        return decideOccurrence(command, state, series);
      }
      case 'BookSlot':
      case 'RescheduleBooking':
      case 'CancelBooking':
      case 'AnswerBooking':
        return decideBooking(command, state);
      case 'HoldSlot':
      case 'ReleaseHold':
      case 'SyncPart':
        return decidePart(command, state);
      case 'ShareCalendar':
      case 'UnshareCalendar':
      case 'AddSpaceMember':
        return decideMembers(command, state);
      case 'ImportEvents':
        return decideImport(command, state, requireWritable(state, command.actorId, command.calendarId).id);
      case 'SubscribeCalendar':
      case 'RefreshSubscription':
      case 'Unsubscribe':
        return decideSubscription(command, state);
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
      case 'calendar.deleted':
        state.calendars.delete(event.data.calendar.id);
        break;
      case 'event.created':
      case 'event.updated':
      case 'event.cancelled': {
        state.events.set(event.data.id, event.data);
        state.index.put(event.data);
        break;
      }
      case 'event.occurrence.changed':
      case 'event.occurrence.cancelled': {
        state.events.set(event.data.series.id, event.data.series);
        state.index.put(event.data.series);
        break;
      }
      case 'booking.held':
      case 'booking.hold_released':
      case 'booking.part_changed':
        evolvePart(state, event);
        break;
      case 'calendar.member.added':
      case 'calendar.member.removed':
      case 'space.member.added':
        evolveMembers(state, event);
        break;
      default:
        evolveBooking(state, event);
    }
    return state;
  },
};

export const scheduleStream = (spaceId: string) => `space-${spaceId}`;
