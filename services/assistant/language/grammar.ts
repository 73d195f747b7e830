/**
 * The built-in assistant's grammar: a request is an intent (found from its leading verb or a fixed phrase) plus slots
 * (amounts of time, days, parts of the day, clock times, weeks) found anywhere in it; the words no slot takes are the
 * title. Pure: no clock, no zone (dates are resolved against "today" in resolve.ts).
 */
import { clock, day, duration, period, week, type ClockTime, type DayPeriod, type DayRef, type WeekRef } from './phrases';
import { tokenize, type Token } from './tokens';

export type Request =
  | { intent: 'schedule'; title: string; focus: boolean; minutes: number | null; day: DayRef | null; period: DayPeriod | null; time: ClockTime | null }
  | { intent: 'move'; source: { time: ClockTime | null; day: DayRef | null; words: string[] }; day: DayRef | null; time: ClockTime | null }
  | { intent: 'free'; week: WeekRef | null; day: DayRef | null; minutes: number | null }
  | { intent: 'task'; title: string; dueDay: DayRef | null; dueTime: ClockTime | null }
  | { intent: 'summary'; day: DayRef | null }
  | { intent: 'help' }
  | { intent: 'unknown' };

interface Slots {
  minutes: number | null;
  day: DayRef | null;
  period: { period: DayPeriod; today: boolean } | null;
  time: ClockTime | null;
  endTime: ClockTime | null;
  week: WeekRef | null;
  rest: Token[];
}

const isWord = (token: Token | undefined, ...options: string[]) => token?.kind === 'word' && options.includes(token.text);

/** "from 2 to 3pm", "2-3pm", "between 2 and 4": a start and an end; a bare start takes the end's half of the day. */
function clockRange(t: readonly Token[], i: number) {
  const between = isWord(t[i], 'between');
  const j = between || isWord(t[i], 'from') ? i + 1 : i;
  const start = clock(t, j, true);
  const joiner = start ? t[start.end] : undefined;
  if (!start || !(isWord(joiner, 'to', 'until', 'till') || joiner?.text === '-' || (between && isWord(joiner, 'and')))) return null;
  const end = clock(t, start.end + 1, true);
  if (!end) return null;
  let from = start.value;
  if (from.bare && from.minute >= 720 && end.value.minute < 720) from = { minute: from.minute - 720, bare: false };
  if (from.bare && from.minute < 720 && end.value.minute >= 720 && from.minute + 720 < end.value.minute) from = { minute: from.minute + 720, bare: false };
  return { value: { from: { minute: from.minute, bare: false }, to: end.value }, end: end.end };
}

/** Takes every slot phrase out of `t`, left to right; what is left over is the rest (title words). `loose`: bare hours are times. */
function slotsOf(t: readonly Token[], loose = false): Slots {
  const slots: Slots = { minutes: null, day: null, period: null, time: null, endTime: null, week: null, rest: [] };
  for (let i = 0; i < t.length;) {
    const w = !slots.week ? week(t, i) : null;
    if (w) { slots.week = w.value; i = w.end; continue; }
    const d = !slots.day ? day(t, i) : null;
    if (d) {
      slots.day = d.value;
      if (isWord(t[d.end - 1], 'tonight')) slots.period = { period: 'evening', today: true };
      i = d.end;
      continue;
    }
    const p = !slots.period ? period(t, i) : null;
    if (p) { slots.period = p.value; i = p.end; continue; }
    const m = slots.minutes === null ? duration(t, i) : null;
    if (m) { slots.minutes = m.value; i = m.end; continue; }
    const r = !slots.time ? clockRange(t, i) : null;
    if (r) { slots.time = r.value.from; slots.endTime = r.value.to; i = r.end; continue; }
    const c = !slots.time ? clock(t, i, loose) : null;
    if (c) { slots.time = c.value; i = c.end; continue; }
    slots.rest.push(t[i]);
    i++;
  }
  // "at 3 in the afternoon"; "tonight at 8".
  if (slots.time?.bare && slots.period && slots.period.period !== 'morning' && slots.time.minute < 720) {
    slots.time = { minute: slots.time.minute + 720, bare: false };
  }
  if (slots.time?.bare && slots.period?.period === 'morning' && slots.time.minute >= 720 && slots.time.minute < 1440) {
    slots.time = { minute: slots.time.minute - 720, bare: false };
  }
  if (slots.period?.today && !slots.day) slots.day = { kind: 'offset', days: 0 };
  return slots;
}

const LEAD_FILLERS = [
  'please', 'pls', 'can', 'could', 'would', 'will', 'you', 'i', "i'd", 'want', 'like', 'need', 'to', "let's", 'lets', 'hey', 'hi',
  'hello', 'thanks', 'thank', 'ok', 'okay', 'assistant', 'just', 'also', 'go', 'ahead', 'and',
];
const TITLE_LEAD = ['a', 'an', 'the', 'some', 'of', 'for', 'to', 'me', 'my', 'in', 'at', 'on', 'by', 'called', 'named', 'titled', 'that', 'about'];
const TITLE_TRAIL = ['for', 'on', 'at', 'in', 'to', 'by', 'of', 'the', 'a', 'an', 'please', 'due', 'before', 'until', 'till', 'from'];

function trimWords(tokens: Token[], lead: string[], trail: string[]): Token[] {
  let a = 0;
  let b = tokens.length;
  while (a < b && (tokens[a].kind === 'punct' || lead.includes(tokens[a].text))) a++;
  while (b > a && (tokens[b - 1].kind === 'punct' || trail.includes(tokens[b - 1].text))) b--;
  return tokens.slice(a, b);
}

/** The title as the person spelt it, without punctuation at its ends, the first letter upper-case. */
function titleOf(tokens: Token[]): string {
  const words = trimWords(tokens, TITLE_LEAD, TITLE_TRAIL);
  let text = '';
  for (const [k, token] of words.entries()) {
    const glue = k === 0 || token.kind === 'punct' && token.text !== '-' && token.text !== '&' ? '' : ' ';
    text += glue + token.raw;
  }
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const MOVE_VERBS = ['move', 'reschedule', 'push', 'shift', 'postpone', 'bump', 'change', 'rebook'];
const SCHEDULE_VERBS = ['schedule', 'book', 'block', 'plan', 'add', 'put', 'create', 'set', 'reserve', 'make', 'find', 'arrange', 'organize', 'organise', 'new', 'insert'];
const FOCUS_WORDS = ['focus', 'deep', 'concentrate', 'concentration', 'heads-down'];
const TASK_WORDS = ['task', 'tasks', 'todo', 'todos', 'to-do', 'to-dos', 'reminder'];
const GENERIC_EVENT_WORDS = ['meeting', 'event', 'appointment', 'thing', 'session', 'slot', 'block', 'one'];

const words = (t: readonly Token[]) => t.filter((x) => x.kind === 'word').map((x) => x.text);
const startsWith = (ws: string[], ...seq: string[]) => seq.every((s, k) => ws[k] === s);
const containsSeq = (ws: string[], ...seq: string[]) => ws.some((_, k) => seq.every((s, n) => ws[k + n] === s));

function isSummary(ws: string[]): boolean {
  if (['summarize', 'summarise', 'summary', 'recap', 'agenda', 'overview', 'brief', 'briefing', 'rundown'].some((w) => ws.includes(w))) return true;
  return containsSeq(ws, "what's", 'on') || containsSeq(ws, 'what', 'is', 'on') || containsSeq(ws, 'whats', 'on') ||
    containsSeq(ws, 'what', 'do', 'i', 'have') || containsSeq(ws, "what's", 'my', 'day') || containsSeq(ws, 'how', 'does', 'my') ||
    containsSeq(ws, 'what', 'does', 'my') || containsSeq(ws, "how's", 'my');
}

const isFree = (ws: string[]) =>
  ['free', 'availability', 'available', 'gaps', 'openings'].some((w) => ws.includes(w)) || containsSeq(ws, 'when', 'do', 'i', 'have', 'time');

const isHelp = (ws: string[]) => ws.length === 0 || ws[0] === 'help' || containsSeq(ws, 'what', 'can', 'you', 'do');

/** "task", "todo", "remind me to", or a plural list word after "to my" ("add milk to my tasks", not "summarize my tasks"). */
const asksForTask = (ws: string[]) =>
  ws.some((w, k) => TASK_WORDS.includes(w) && (!w.endsWith('s') || ws[k - 2] === 'to')) || containsSeq(ws, 'remind', 'me') || startsWith(ws, 'remember', 'to');

function taskRequest(t: Token[]): Request {
  const ws = t.map((x) => x.text);
  let body = t;
  const remind = ws.findIndex((w, k) => (w === 'remind' && ws[k + 1] === 'me') || (w === 'remember' && ws[k + 1] === 'to'));
  if (remind >= 0) body = t.slice(remind + (ws[remind] === 'remind' ? 2 : 1));
  else {
    const at = ws.findIndex((w) => TASK_WORDS.includes(w));
    const list = at > 0 && ['my', 'the', 'a'].includes(ws[at - 1]) && ws[at - 2] === 'to';
    // "add call Ana to my tasks": the title is before the list words; "add a task to call Ana": after the task word.
    body = list ? t.slice(0, at - 2).concat(t.slice(at + (ws[at + 1] === 'list' ? 2 : 1))) : t.slice(at + 1);
    if (list) body = trimWords(body, [...SCHEDULE_VERBS, 'a', 'an', 'the', 'new'], []);
  }
  const slots = slotsOf(body);
  return { intent: 'task', title: titleOf(slots.rest), dueDay: slots.day, dueTime: slots.time };
}

/** "move my 3pm to friday", "push the design review to 4pm", "reschedule tomorrow's 10:00 for next monday". */
function moveRequest(t: Token[]): Request {
  const body = t.slice(1);
  for (let k = body.length - 1; k > 0; k--) {
    if (!isWord(body[k], 'to', 'until', 'till', 'for', 'on')) continue;
    const target = slotsOf(body.slice(isWord(body[k], 'on') ? k : k + 1), true);
    if (target.rest.some((x) => x.kind === 'word') || (!target.day && !target.time)) continue;
    const source = slotsOf(body.slice(0, k));
    const hint = source.rest.filter((x) => x.kind === 'word' && !['my', 'the', 'our', 'a', 'an', "o'clock", ...GENERIC_EVENT_WORDS].includes(x.text));
    return {
      intent: 'move',
      source: { time: source.time, day: source.day, words: hint.map((x) => x.text) },
      day: target.day ?? (target.period?.today ? { kind: 'offset', days: 0 } : null),
      time: target.time,
    };
  }
  return { intent: 'move', source: { time: null, day: null, words: [] }, day: null, time: null };
}

function scheduleRequest(t: Token[]): Request {
  const ws = t.map((x) => x.text);
  let body = t;
  if (SCHEDULE_VERBS.includes(ws[0])) body = t.slice(['up', 'out', 'off', 'in', 'aside'].includes(ws[1]) ? 2 : 1);
  const slots = slotsOf(body);
  let rest = slots.rest;
  const restWords = words(rest);
  // "some time for X", "time for X": the title is X.
  const timeFor = restWords.indexOf('time');
  if (timeFor >= 0 && restWords[timeFor + 1] === 'for') rest = rest.slice(rest.findIndex((x) => x.text === 'for', rest.findIndex((x) => x.text === 'time')) + 1);
  const focus = words(rest).some((w) => FOCUS_WORDS.includes(w));
  let title = titleOf(rest);
  if (!title || /^(time|some time|a block)$/i.test(title)) title = focus ? 'Focus' : 'Meeting';
  else if (/^with\b/i.test(title)) title = `Meeting ${title}`;
  if (focus && /^(focus|focus time|focused time|deep work|focus block)$/i.test(title)) title = title === 'Deep work' ? title : 'Focus';
  let minutes = slots.minutes;
  if (minutes === null && slots.time && slots.endTime && slots.endTime.minute > slots.time.minute) minutes = slots.endTime.minute - slots.time.minute;
  return { intent: 'schedule', title, focus, minutes, day: slots.day, period: slots.period?.period ?? null, time: slots.time };
}

/** Reads one request. Anything it cannot place is `unknown`. */
export function parseRequest(text: string): Request {
  const all = tokenize(text);
  const start = all.findIndex((x) => x.kind !== 'punct' && !LEAD_FILLERS.includes(x.text));
  const t = start < 0 ? [] : all.slice(start);
  const ws = words(t);
  if (isHelp(ws)) return { intent: 'help' };
  if (asksForTask(ws)) return taskRequest(t);
  if (MOVE_VERBS.includes(ws[0])) return moveRequest(t);
  if (isSummary(ws)) return { intent: 'summary', day: slotsOf(t).day };
  if (isFree(ws)) {
    const slots = slotsOf(t);
    return { intent: 'free', week: slots.week, day: slots.day, minutes: slots.minutes };
  }
  if (SCHEDULE_VERBS.includes(ws[0]) || ws.some((w) => FOCUS_WORDS.includes(w))) return scheduleRequest(t);
  return { intent: 'unknown' };
}
