/**
 * The built-in assistant: reads a request with the grammar (language/), answers in the person's zone with text
 * and suggestions checked on the common path (suggestions.ts). Deterministic for a given calendar and instant.
 */
import { addDays, epochAt, localDate, localMinute, MINUTE_MS } from './calendar-time';
import { DAY_PERIODS } from '../availability/ranking';
import type { Interval } from '../availability/types';
import { dateLabel, hoursLabel, lengthLabel, minuteLabel } from './format';
import { parseRequest, type Request } from './language/grammar';
import type { DayPeriod } from './language/phrases';
import { resolveDay, resolveWeek } from './language/resolve';
import { check, type Checked, type Draft } from './suggestions';
import type { AssistantWorld, CalendarItem } from './world';

export interface Answer {
  text: string;
  suggestions: Checked[];
  /** Offer the quick actions: the request was not understood. */
  offerQuickActions: boolean;
}

export const HELP_TEXT =
  'I can plan focus time ("schedule 45 minutes of focus tomorrow morning"), move an event ("move my 3pm to Friday"), ' +
  'find free time ("when am I free this week"), add a task ("add a task to call Ana by Monday") and summarize a day ' +
  '("summarize my day").';

const SEARCH_DAYS = 7;
const STEP_MS = 5 * MINUTE_MS;
const MAX_WINDOWS_PER_DAY = 4;
const MAX_LISTED = 12;
/** Outside working hours, nothing is planned before 08:00. */
const EARLIEST_MINUTE = 8 * 60;

type Of<I extends Request['intent']> = Extract<Request, { intent: I }>;
const say = (text: string, suggestions: Checked[] = []): Answer => ({ text, suggestions, offerQuickActions: false });

const dayRange = (date: string, tz: string): Interval => ({ start: epochAt(date, 0, tz), end: epochAt(addDays(date, 1), 0, tz) });
const periodRange = (date: string, period: DayPeriod, tz: string): Interval => ({
  start: epochAt(date, DAY_PERIODS[period].startMinute, tz), end: epochAt(date, DAY_PERIODS[period].endMinute, tz),
});
const daysRange = (from: string, days: number, tz: string): Interval => ({ start: epochAt(from, 0, tz), end: epochAt(addDays(from, days), 0, tz) });
const roundUp = (ms: number) => Math.ceil(ms / STEP_MS) * STEP_MS;

function clipAll(windows: readonly Interval[], range: Interval): Interval[] {
  return windows
    .map((w) => ({ start: Math.max(w.start, range.start), end: Math.min(w.end, range.end) }))
    .filter((w) => w.end > w.start);
}

/** The earliest span of `length` in the windows, starting on a 5-minute mark. */
function firstFit(windows: readonly Interval[], length: number): Interval | null {
  for (const w of windows) {
    const start = roundUp(w.start);
    if (start + length <= w.end) return { start, end: start + length };
  }
  return null;
}

/** The span of `length` in the windows whose start is nearest to `target`. */
function nearestFit(windows: readonly Interval[], length: number, target: number): Interval | null {
  let best: Interval | null = null;
  for (const w of windows) {
    const latest = Math.floor((w.end - length) / STEP_MS) * STEP_MS;
    const start = Math.min(Math.max(roundUp(w.start), roundUp(target)), latest);
    if (start < w.start || start + length > w.end) continue;
    if (!best || Math.abs(start - target) < Math.abs(best.start - target)) best = { start, end: start + length };
  }
  return best;
}

/** Proposes `draft`; when its time is taken, the nearest free time of the same length that day instead. */
async function proposeOrNearest(draft: Extract<Draft, { start: number }>, world: AssistantWorld, confirmText: (c: Checked) => string): Promise<Answer> {
  const first = await check(draft, world);
  if (first.ok) return say(`I can ${confirmText(first.checked)}`, [first.checked]);
  if (!first.busy) return say(`I can't do that: ${first.reason}.`);
  const date = localDate(draft.start, world.timeZone);
  const free = await world.freeTime(dayRange(date, world.timeZone));
  const alternative = nearestFit(free, draft.end - draft.start, draft.start);
  const second = alternative && (await check({ ...draft, ...alternative }, world));
  if (!second || !second.ok) return say(`${capitalize(first.reason)}, and nothing else that long is free that day.`);
  return say(`${capitalize(first.reason)}. The nearest free time that day: I can ${confirmText(second.checked)}`, [second.checked]);
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
const toAdd = (c: Checked) => `add ${c.summary}. Confirm to add it to your calendar.`;
const toMove = (c: Checked) => `${c.summary.charAt(0).toLowerCase()}${c.summary.slice(1)}. Confirm to move it.`;

async function schedule(r: Of<'schedule'>, world: AssistantWorld, today: string): Promise<Answer> {
  const tz = world.timeZone;
  const prefs = world.preferences;
  const length = (r.minutes ?? (r.focus ? prefs.focusMinutes : prefs.meetingMinutes)) * MINUTE_MS;
  const base = { kind: 'create_event' as const, title: r.title, eventKind: r.focus ? ('focus' as const) : ('meeting' as const) };
  const date = r.day ? resolveDay(r.day, today) : null;
  if (r.time) {
    const on = date ?? (epochAt(today, r.time.minute, tz) > world.now ? today : addDays(today, 1));
    const start = epochAt(on, r.time.minute, tz);
    return proposeOrNearest({ ...base, start, end: start + length }, world, toAdd);
  }
  const period = r.period ?? (r.focus ? prefs.focusPeriod : null);
  const dates = date ? [date] : Array.from({ length: SEARCH_DAYS }, (_, k) => addDays(today, k));
  const free = await world.freeTime(daysRange(dates[0], dates.length, tz));
  const within = (d: string) => (period ? periodRange(d, period, tz) : dayRange(d, tz));
  let found = dates.map((d) => firstFit(clipAll(free, within(d)), length)).find((f) => f) ?? null;
  let note = '';
  if (!found && r.period) {
    // The person named the part of the day: outside working hours is fine then, but not before EARLIEST_MINUTE.
    const anyHours = await world.freeTime(daysRange(dates[0], dates.length, tz), { anyHours: true });
    const named = (d: string) => ({ start: Math.max(within(d).start, epochAt(d, EARLIEST_MINUTE, tz)), end: within(d).end });
    found = dates.map((d) => firstFit(clipAll(anyHours, named(d)), length)).find((f) => f) ?? null;
  }
  if (!found && date && period) {
    found = firstFit(clipAll(free, dayRange(date, tz)), length);
    if (found) note = `Your ${period} is full. `;
  }
  const where = `${date ? `on ${dateLabel(date)}` : `in the next ${SEARCH_DAYS} days`}${period ? ` (${period})` : ''}`;
  if (!found) return say(`I found no free ${lengthLabel(length)} ${where}.`);
  const checked = await check({ ...base, ...found }, world);
  if (!checked.ok) return say(`I can't do that: ${checked.reason}.`);
  return say(`${note}I can ${toAdd(checked.checked)}`, [checked.checked]);
}

/** The event a move names: by its clock time (that day, else the next days) or by words of its title. */
async function findEvent(r: Of<'move'>, world: AssistantWorld, today: string): Promise<CalendarItem | string> {
  const tz = world.timeZone;
  const { time, day, words } = r.source;
  const from = day ? resolveDay(day, today) : today;
  const events = (await world.events(daysRange(from, day ? 1 : SEARCH_DAYS + 1, tz))).filter((e) => !e.allDay && e.start >= dayRange(from, tz).start);
  const named = (e: CalendarItem) => words.every((w) => e.title.toLowerCase().includes(w));
  if (time) {
    const at = events.filter((e) => localMinute(e.start, tz) === time.minute);
    const found = at.find(named) ?? at[0];
    return found ?? `I found no event at ${minuteLabel(time.minute)} ${day ? `on ${dateLabel(from)}` : `today or in the next ${SEARCH_DAYS} days`}.`;
  }
  if (words.length) return events.find(named) ?? `I found no event called "${words.join(' ')}" in the next ${SEARCH_DAYS} days.`;
  return 'Which event should I move? For example: "move my 3pm to Friday".';
}

async function move(r: Of<'move'>, world: AssistantWorld, today: string): Promise<Answer> {
  const tz = world.timeZone;
  if (!r.day && !r.time) return say('Where should it go? For example: "move my 3pm to Friday" or "move my 3pm to 4pm".');
  const event = await findEvent(r, world, today);
  if (typeof event === 'string') return say(event);
  const date = r.day ? resolveDay(r.day, today) : localDate(event.start, tz);
  const start = epochAt(date, r.time ? r.time.minute : localMinute(event.start, tz), tz);
  return proposeOrNearest({ kind: 'move_event', eventId: event.id, start, end: start + (event.end - event.start) }, world, toMove);
}

async function free(r: Of<'free'>, world: AssistantWorld, today: string): Promise<Answer> {
  const tz = world.timeZone;
  const { from, days } = r.day ? { from: resolveDay(r.day, today), days: 1 } : resolveWeek(r.week ?? 'this_week', today, world.weekStartsOn);
  const least = (r.minutes ?? 30) * MINUTE_MS;
  const windows = await world.freeTime(daysRange(from, days, tz));
  const lines: string[] = [];
  for (let k = 0; k < days; k++) {
    const date = addDays(from, k);
    const open = clipAll(windows, dayRange(date, tz)).filter((w) => w.end - w.start >= least);
    if (!open.length) continue;
    const shown = open.slice(0, MAX_WINDOWS_PER_DAY).map((w) => hoursLabel(w, tz)).join(', ');
    lines.push(`${dateLabel(date)}: ${shown}${open.length > MAX_WINDOWS_PER_DAY ? ` and ${open.length - MAX_WINDOWS_PER_DAY} more` : ''}`);
  }
  const where = r.day ? `on ${dateLabel(from)}` : r.week === 'next_week' ? 'next week' : r.week === 'weekend' ? 'this weekend' : 'this week';
  if (!lines.length) return say(`You have no free stretch of ${lengthLabel(least)} or more ${where} within your working hours.`);
  return say(`You're free ${where} (stretches of ${lengthLabel(least)} or more, within your working hours):\n${lines.join('\n')}`);
}

async function task(r: Of<'task'>, world: AssistantWorld, today: string): Promise<Answer> {
  const tz = world.timeZone;
  if (!r.title) return say('What should the task say? For example: "add a task to call Ana by Monday".');
  let dueAt: number | null = null;
  if (r.dueDay || r.dueTime) {
    const date = r.dueDay ? resolveDay(r.dueDay, today) : today;
    dueAt = r.dueTime ? epochAt(date, r.dueTime.minute, tz) : epochAt(addDays(date, 1), 0, tz) - 1000;
  }
  const checked = await check({ kind: 'create_task', title: r.title, dueAt }, world);
  if (!checked.ok) return say(`I can't do that: ${checked.reason}.`);
  return say(`I can add ${checked.checked.summary}. Confirm to add it to your tasks.`, [checked.checked]);
}

function eventLine(e: CalendarItem, tz: string): string {
  return `${e.allDay ? 'all day' : hoursLabel(e, tz)} ${e.title}`;
}

async function summary(r: Of<'summary'>, world: AssistantWorld, today: string): Promise<Answer> {
  const tz = world.timeZone;
  const date = r.day ? resolveDay(r.day, today) : today;
  const range = dayRange(date, tz);
  const [events, tasks, open] = await Promise.all([world.events(range), world.tasksDue(range), world.freeTime(range)]);
  const parts = [`${dateLabel(date)}${date === today ? ' (today)' : ''}:`];
  if (events.length) {
    const listed = events.slice(0, MAX_LISTED).map((e) => eventLine(e, tz)).join('; ');
    const more = events.length > MAX_LISTED ? ` and ${events.length - MAX_LISTED} more` : '';
    parts.push(`${events.length} event${events.length === 1 ? '' : 's'}: ${listed}${more}.`);
  } else parts.push('no events.');
  if (tasks.length) {
    const more = tasks.length > MAX_LISTED ? ` and ${tasks.length - MAX_LISTED} more` : '';
    parts.push(`Tasks due: ${tasks.slice(0, MAX_LISTED).map((t) => t.title).join('; ')}${more}.`);
  } else parts.push('No tasks due.');
  const freeMs = open.reduce((sum, w) => sum + (w.end - w.start), 0);
  if (freeMs >= MINUTE_MS) parts.push(`${lengthLabel(freeMs)} free in your working hours.`);
  return say(parts.join(' '));
}

export async function builtinAnswer(text: string, world: AssistantWorld): Promise<Answer> {
  const request = parseRequest(text);
  const today = localDate(world.now, world.timeZone);
  switch (request.intent) {
    case 'schedule': return schedule(request, world, today);
    case 'move': return move(request, world, today);
    case 'free': return free(request, world, today);
    case 'task': return task(request, world, today);
    case 'summary': return summary(request, world, today);
    case 'help': return { text: HELP_TEXT, suggestions: [], offerQuickActions: true };
    case 'unknown': return { text: `Sorry, I did not understand that. ${HELP_TEXT}`, suggestions: [], offerQuickActions: true };
  }
}
