/**
 * When the reminders of an event fall due: for each occurrence of the one expansion (exceptions applied, so a
 * cancelled occurrence has none and a moved one is reminded before its new time), each of its reminders (its own, or
 * the series') is due `minutesBefore` before its start. Pure. Bounded: occurrences are read over a window of the
 * asked span plus the longest reminder (4 weeks), which the rule's limits hold to 24 starts a day, plus moved ones.
 */
import type { Reminder } from '../../contracts/reminders';
import { deterministicUuid } from '../ids';
import { MINUTE_MS } from '../time/local-time';
import { type ExceptionLike, instancesOf, OPEN_END, type WithExceptions } from '../time/recurrence';

export interface ReminderException extends ExceptionLike {
  reminders?: readonly Reminder[];
}

export interface RemindedEvent extends WithExceptions<ReminderException> {
  reminders: readonly Reminder[];
}

export interface DueReminder {
  id: string;
  /** The start the rule gave the occurrence (a single event: its start). */
  occurrenceStartsAt: string;
  startMs: number;
  endMs: number;
  dueMs: number;
  minutesBefore: number;
  method: Reminder['method'];
}

/** Reminders of occurrences `nextReminder` looks at before it gives up (10,000 occurrences of 5 reminders). */
const MAX_SCANNED = 50_000;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A reminder's identity: the event, the occurrence (its original start), the start it reminds of, and the reminder.
 * Moving an occurrence makes new reminders; editing anything else keeps them.
 */
export const reminderIdOf = (eventId: string, originalMs: number, startMs: number, r: Reminder) =>
  deterministicUuid('reminder', eventId, iso(originalMs), iso(startMs), String(r.minutesBefore), r.method);

/** The longest reminder of the event or of any of its occurrences, in ms; null when nothing reminds. */
export function longestReminderMs(ev: RemindedEvent): number | null {
  const lists = [ev.reminders, ...(ev.recurrenceRule ? (ev.exceptions ?? []).map((x) => x.reminders ?? []) : [])];
  let longest: number | null = null;
  for (const list of lists) for (const r of list) longest = Math.max(longest ?? 0, r.minutesBefore * MINUTE_MS);
  return longest;
}

/** An occurrence's reminders (its own when it has them), each (minutesBefore, method) once. */
function remindersOf(ev: RemindedEvent, change: ReminderException | null): Reminder[] {
  const seen = new Set<string>();
  return (change?.reminders ?? ev.reminders).filter((r) => {
    const key = `${r.minutesBefore}|${r.method}`;
    return !seen.has(key) && (seen.add(key), true);
  });
}

function* occurrenceReminders(eventId: string, ev: RemindedEvent, after: number, to: number): Generator<DueReminder> {
  for (const o of instancesOf(ev, after + 1, to, after + 1)) {
    for (const r of remindersOf(ev, o.change)) {
      yield {
        id: reminderIdOf(eventId, o.original, o.start, r), occurrenceStartsAt: iso(o.original), startMs: o.start, endMs: o.end,
        dueMs: o.start - r.minutesBefore * MINUTE_MS, minutesBefore: r.minutesBefore, method: r.method,
      };
    }
  }
}

const byDue = (a: DueReminder, b: DueReminder) => a.dueMs - b.dueMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** The reminders of the occurrences starting after `after` that are due in [dueFrom, dueTo), by due instant. */
export function remindersDue(eventId: string, ev: RemindedEvent, window: { after: number; dueFrom: number; dueTo: number }): DueReminder[] {
  const longest = longestReminderMs(ev);
  if (longest === null || window.dueTo <= window.dueFrom) return [];
  const due: DueReminder[] = [];
  for (const r of occurrenceReminders(eventId, ev, window.after, window.dueTo + longest)) {
    if (r.dueMs >= window.dueFrom && r.dueMs < window.dueTo) due.push(r);
  }
  return due.sort(byDue);
}

/**
 * The first reminder due at or after `from` of an occurrence starting after `from`: where a sparse series (yearly,
 * or ending soon) has its next one beyond any horizon. Null when none is left (or none among the next MAX_SCANNED).
 */
export function nextReminder(eventId: string, ev: RemindedEvent, from: number): DueReminder | null {
  const longest = longestReminderMs(ev);
  if (longest === null) return null;
  let best: DueReminder | null = null;
  let scanned = 0;
  for (const r of occurrenceReminders(eventId, ev, from, OPEN_END)) {
    // Occurrences come by start: once one starts after the best due plus the longest reminder, none can beat it.
    if (best && r.startMs - longest > best.dueMs) break;
    if (r.dueMs >= from && (!best || byDue(r, best) < 0)) best = r;
    if (++scanned >= MAX_SCANNED) break;
  }
  return best;
}
