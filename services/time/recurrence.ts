import { RRuleTemporal } from 'rrule-temporal';
import { zonedDateTimeText } from './zone';

export interface Recurring {
  startsAt: string;
  endsAt: string;
  timeZone: string;
  recurrenceRule: string | null;
}

export interface Interval {
  start: number;
  end: number;
}

/** Upper bound for series without COUNT/UNTIL, as epoch ms (the largest valid Date). */
export const OPEN_END = 8.64e15;

const rules = new WeakMap<Recurring, RRuleTemporal>();

function normalise(rule: string): string {
  return rule.trim().replace(/^RRULE:/i, '');
}

function ruleFor(ev: Recurring): RRuleTemporal {
  let r = rules.get(ev);
  if (!r) {
    const text = zonedDateTimeText(Date.parse(ev.startsAt), ev.timeZone);
    const dtstart = { timeZoneId: ev.timeZone, toString: () => text };
    r = new RRuleTemporal({ rruleString: normalise(ev.recurrenceRule!), dtstart, maxIterations: 100_000 });
    rules.set(ev, r);
  }
  return r;
}

/** Returns a reason when the rule is not one we accept, else null. */
export function checkRule(ev: Recurring): string | null {
  const rule = normalise(ev.recurrenceRule ?? '');
  if (/DTSTART/i.test(rule)) return 'must not contain DTSTART (startsAt is the first occurrence)';
  const freq = /(?:^|;)FREQ=([A-Z]+)/i.exec(rule)?.[1]?.toUpperCase();
  if (!freq) return 'must have FREQ';
  if (!['HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'].includes(freq)) return `FREQ=${freq} is not supported`;
  try {
    const probe = { ...ev, recurrenceRule: rule };
    ruleFor(probe).between(new Date(ev.startsAt), new Date(Date.parse(ev.startsAt) + 400 * 86_400_000), true);
    return null;
  } catch (err) {
    return `is not a valid RRULE: ${(err as Error).message}`;
  }
}

/**
 * Occurrences (or the single event) overlapping [from, to), sorted by start. Recurrence is evaluated on the wall
 * clock of the event's time zone, so a 09:00 meeting stays at 09:00 across DST changes.
 */
export function occurrences(ev: Recurring, from: number, to: number): Interval[] {
  const start = Date.parse(ev.startsAt);
  const duration = Date.parse(ev.endsAt) - start;
  if (!ev.recurrenceRule) return start < to && start + duration > from ? [{ start, end: start + duration }] : [];
  const out: Interval[] = [];
  for (const z of ruleFor(ev).between(new Date(from - duration), new Date(to), true)) {
    const s = z.epochMilliseconds;
    if (s < to && s + duration > from) out.push({ start: s, end: s + duration });
  }
  return out;
}

/** End of the last occurrence, or OPEN_END for an endless series. */
export function seriesEnd(ev: Recurring): number {
  const start = Date.parse(ev.startsAt);
  const duration = Date.parse(ev.endsAt) - start;
  if (!ev.recurrenceRule) return start + duration;
  if (!/(?:^|;)(COUNT|UNTIL)=/i.test(ev.recurrenceRule)) return OPEN_END;
  const all = ruleFor(ev).all();
  return all.length ? all[all.length - 1].epochMilliseconds + duration : start + duration;
}
