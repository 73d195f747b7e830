/** A host's Space schedule for the booking rules' unit suites: its history, a booking command, what a slot asks. */
import type { BookingCommand } from '../../write-api/schedule/booking.rules';
import type { SlotAsk } from '../../write-api/schedule/booking-slot';
import { scheduleDecider, type ScheduleCommand } from '../../write-api/schedule/schedule.decider';

export const HOST = '11111111-1111-4111-8111-111111111111';
export const OTHER = '22222222-2222-4222-8222-222222222222';
export const SPACE = '33333333-3333-4333-8333-333333333333';
export const CAL = '44444444-4444-4444-8444-444444444444';
export const CAL2 = '55555555-5555-4555-8555-555555555555';
export const TYPE = '66666666-6666-4666-8666-666666666666';
export const NOW = '2026-11-22T00:00:00.000Z';
export const at = (hhmm: string) => `2026-12-01T${hhmm}:00.000Z`;

/** The host's personal Space with two calendars (CAL the default). */
export const history = [
  { type: 'space.created' as const, data: { space: { id: SPACE, name: 'Home', kind: 'personal' as const, ownerId: HOST, createdAt: NOW, updatedAt: NOW, deletedAt: null } } },
  ...[CAL, CAL2].map((id) => ({
    type: 'calendar.created' as const,
    data: { calendar: { id, spaceId: SPACE, name: 'Cal', color: '#112233', isDefault: id === CAL, createdAt: NOW, updatedAt: NOW, deletedAt: null } },
  })),
];

export const ask = (overrides: Partial<SlotAsk> = {}): SlotAsk => ({
  meetingTypeId: TYPE, buffers: { beforeMinutes: 0, afterMinutes: 0 }, quotas: [], seats: 1, ...overrides,
});

export function bookSlot(id: string, start: string, end: string, overrides: Partial<Extract<BookingCommand, { type: 'BookSlot' }>> = {}): ScheduleCommand {
  return {
    type: 'BookSlot',
    booking: {
      id, meetingTypeId: TYPE, meetingTypeName: 'Intro call', ownerId: HOST, hostId: HOST, hostIds: [HOST], assignment: null, calendarId: CAL, eventId: `event-${id}`,
      startsAt: start, endsAt: end, timeZone: 'Europe/Berlin', guest: { name: 'Ana', email: 'ana@example.com', timeZone: 'Europe/Lisbon' },
      note: 'Hello', location: 'Video',
    },
    event: { title: 'Intro call with Ana', description: 'Hello', reminders: [] }, ask: ask(), requiresConfirmation: false, tokenHash: `hash-${id}`,
    now: NOW, ...overrides,
  };
}

/** The history after the commands, each decided on the state the ones before left. */
export function after(commands: ScheduleCommand[]): never[] {
  let state = history.reduce(scheduleDecider.evolve, scheduleDecider.initialState());
  const events: Array<{ type: string; data: unknown }> = [...history];
  for (const c of commands) {
    const out = scheduleDecider.decide(c, state);
    events.push(...out);
    state = out.reduce(scheduleDecider.evolve, state);
  }
  return events as never[];
}
