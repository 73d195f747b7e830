/**
 * The one path every suggestion takes, whoever proposed it (the built-in assistant or the model): the proposal is
 * checked against the person's calendar and gets the summary people confirm. A refused proposal says why.
 */
import type { SuggestionProposal } from '../../contracts/assistant';
import type { Interval } from '../availability/types';
import { dateLabel, spanLabel } from './format';
import { DAY_MS, localDate, MINUTE_MS, wallClock } from './calendar-time';
import type { AssistantWorld, BusyTime } from './world';

export interface Checked {
  proposal: SuggestionProposal;
  summary: string;
}

export type Checking = { ok: true; checked: Checked } | { ok: false; reason: string; busy?: BusyTime[] };

/** What a proposer asks for; check() completes it (a move's title and current time come from the calendar). */
export type Draft =
  | { kind: 'create_event'; title: string; eventKind: 'meeting' | 'focus'; start: number; end: number }
  | { kind: 'move_event'; eventId: string; start: number; end: number }
  | { kind: 'create_task'; title: string; dueAt: number | null };

const iso = (ms: number) => new Date(ms).toISOString();
const refuse = (reason: string, busy?: BusyTime[]): Checking => ({ ok: false, reason, busy });

export const busyReason = (span: Interval, busy: BusyTime[], timeZone: string) =>
  `${spanLabel(span, timeZone)} is taken by ${[...new Set(busy.map((b) => b.label))].slice(0, 3).join(', ')}`;

function checkTimes(span: Interval, world: AssistantWorld): string | null {
  if (!(span.end > span.start)) return 'the end must be after the start';
  if (span.end - span.start > DAY_MS) return 'it may last at most 24 hours';
  if (span.start < world.now - MINUTE_MS) return `${spanLabel(span, world.timeZone)} has already begun`;
  return null;
}

/** The local date and time a task is due, in words. */
function dueLabel(dueAt: number, timeZone: string): string {
  const local = wallClock(dueAt, timeZone).local;
  const time = local.slice(11, 16);
  return `${dateLabel(localDate(dueAt, timeZone))}${time === '23:59' ? ' (end of day)' : `, ${time}`}`;
}

export async function check(draft: Draft, world: AssistantWorld): Promise<Checking> {
  const tz = world.timeZone;
  switch (draft.kind) {
    case 'create_event': {
      const title = draft.title.trim().slice(0, 500);
      if (!title) return refuse('an event needs a title');
      const span = { start: draft.start, end: draft.end };
      const wrong = checkTimes(span, world);
      if (wrong) return refuse(wrong);
      const busy = await world.busyTime(span);
      if (busy.length) return refuse(busyReason(span, busy, tz), busy);
      return {
        ok: true,
        checked: {
          proposal: { kind: 'create_event', title, eventKind: draft.eventKind, startsAt: iso(span.start), endsAt: iso(span.end), timeZone: tz },
          summary: `${title} on ${spanLabel(span, tz)}`,
        },
      };
    }
    case 'move_event': {
      const event = await world.event(draft.eventId);
      if (!event) return refuse('there is no such event in your calendar');
      if (event.recurring) return refuse(`${event.title} repeats; move the series in your calendar`);
      if (event.allDay) return refuse(`${event.title} is an all-day event`);
      const span = { start: draft.start, end: draft.end };
      const wrong = checkTimes(span, world);
      if (wrong) return refuse(wrong);
      if (span.start === event.start && span.end === event.end) return refuse(`${event.title} is already at ${spanLabel(span, tz)}`);
      const busy = await world.busyTime(span, event.id);
      if (busy.length) return refuse(busyReason(span, busy, tz), busy);
      return {
        ok: true,
        checked: {
          proposal: {
            kind: 'move_event', eventId: event.id, title: event.title,
            from: { startsAt: iso(event.start), endsAt: iso(event.end) }, startsAt: iso(span.start), endsAt: iso(span.end),
          },
          summary: `Move ${event.title} from ${spanLabel(event, tz)} to ${spanLabel(span, tz)}`,
        },
      };
    }
    case 'create_task': {
      const title = draft.title.trim().slice(0, 500);
      if (!title) return refuse('a task needs a title');
      return {
        ok: true,
        checked: {
          proposal: { kind: 'create_task', title, dueAt: draft.dueAt === null ? null : iso(draft.dueAt) },
          summary: draft.dueAt === null ? `Task "${title}"` : `Task "${title}", due ${dueLabel(draft.dueAt, tz)}`,
        },
      };
    }
  }
}
