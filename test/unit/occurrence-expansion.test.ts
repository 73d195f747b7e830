/**
 * @jest-environment-options {"timeZone": "Asia/Kolkata"}
 *
 * Properties of the expansion with exceptions (services/time/exceptions.ts), over random rules in zones with DST
 * changes (Lord Howe's is half an hour): it equals the expansion without them, less the cancelled and changed
 * originals, plus the changed occurrences at their real times, in order; any start bound and window agree; and a
 * split at any start after the first leaves the union of both parts' starts equal to the series'.
 */
import { instancesOf, occurrences, producedStarts, type ExceptionLike, type WithExceptions } from '../../services/time/recurrence';
import { ruleStarts } from '../../services/time/exceptions';
import { splitRule } from '../../services/time/split';
import { prng } from '../support/prng';

const RULES = [
  'FREQ=DAILY', 'FREQ=DAILY;COUNT=40', 'FREQ=WEEKLY;BYDAY=MO,WE,FR', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,SU;COUNT=30',
  'FREQ=MONTHLY;BYDAY=-1FR', 'FREQ=HOURLY;INTERVAL=5;COUNT=200', 'FREQ=MONTHLY;BYMONTHDAY=31', 'FREQ=DAILY;BYHOUR=2,14;UNTIL=20270401T000000Z',
  'FREQ=YEARLY;BYMONTH=3,10;BYDAY=-1SU;BYHOUR=1,2,3', 'FREQ=HOURLY;INTERVAL=7',
];
const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'UTC', 'Asia/Kolkata'];
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

function randomSeries(next: () => number): WithExceptions {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
  const start = Date.UTC(2026, 0, 1) + Math.floor(next() * 300) * DAY + Math.floor(next() * 96) * 15 * 60_000;
  const duration = (1 + Math.floor(next() * 12)) * 15 * 60_000;
  return { startsAt: iso(start), endsAt: iso(start + duration), timeZone: pick(ZONES), recurrenceRule: pick(RULES) };
}

/** Cancels, moves (anywhere within two weeks, any length) or retitles about a third of the starts of a year. */
function randomExceptions(ev: WithExceptions, next: () => number): ExceptionLike[] {
  const from = Date.parse(ev.startsAt);
  const out: Array<ExceptionLike & { title?: string }> = [];
  for (const at of ruleStarts(ev, from, from + 366 * DAY)) {
    const r = next();
    if (r < 0.1) out.push({ occurrenceStartsAt: iso(at), cancelled: true });
    else if (r < 0.25) {
      const start = at + Math.round((next() - 0.5) * 14 * DAY);
      out.push({ occurrenceStartsAt: iso(at), startsAt: iso(start), endsAt: iso(start + Math.ceil(next() * 8) * HOUR) });
    } else if (r < 0.33) out.push({ occurrenceStartsAt: iso(at), title: 'own' });
    if (out.length >= 400) break;
  }
  return out;
}

/** The definition: the rule's occurrences, less the exceptions' originals, plus the changed ones where they now are. */
function expected(ev: WithExceptions, from: number, to: number, minStart: number) {
  const duration = Date.parse(ev.endsAt) - Date.parse(ev.startsAt);
  const skipped = new Set((ev.exceptions ?? []).map((x) => Date.parse(x.occurrenceStartsAt)));
  const plain = [...ruleStarts(ev, from, to)]
    .filter((s) => !skipped.has(s))
    .map((s) => ({ start: s, end: s + duration, original: s }));
  const changed = (ev.exceptions ?? [])
    .filter((x) => !x.cancelled)
    .map((x) => {
      const original = Date.parse(x.occurrenceStartsAt);
      const start = x.startsAt ? Date.parse(x.startsAt) : original;
      return { start, end: x.endsAt ? Date.parse(x.endsAt) : start + duration, original };
    })
    .filter((o) => o.start < to && o.end > from);
  return [...plain, ...changed]
    .filter((o) => o.start >= minStart)
    .sort((a, b) => a.start - b.start || a.original - b.original);
}

describe('expansion with exceptions', () => {
  it('equals the expansion without them, less cancelled and changed originals, plus changed ones at their times (300 series)', () => {
    const next = prng(20261025);
    for (let n = 0; n < 300; n++) {
      const series = randomSeries(next);
      const ev = { ...series, exceptions: randomExceptions(series, next) };
      const from = Date.parse(ev.startsAt) + Math.floor((next() - 0.2) * 200) * DAY;
      const to = from + Math.ceil(next() * 40) * DAY;
      const minStart = next() < 0.5 ? Number.NEGATIVE_INFINITY : from + Math.floor(next() * (to - from));
      const got = [...instancesOf(ev, from, to, minStart)].map(({ start, end, original }) => ({ start, end, original }));
      expect({ n, rule: ev.recurrenceRule, zone: ev.timeZone, got }).toEqual({ n, rule: ev.recurrenceRule, zone: ev.timeZone, got: expected(ev, from, to, minStart) });
    }
  });

  it('hands each changed occurrence its exception, and none to the others', () => {
    const ev = {
      startsAt: '2026-10-24T07:00:00.000Z', endsAt: '2026-10-24T07:30:00.000Z', timeZone: 'Europe/Berlin', recurrenceRule: 'FREQ=DAILY',
      exceptions: [{ occurrenceStartsAt: '2026-10-25T08:00:00.000Z', title: 'Sunday' }],
    };
    const list = occurrences(ev, Date.parse('2026-10-24T00:00:00Z'), Date.parse('2026-10-27T00:00:00Z'));
    expect(list.map((o) => o.change)).toEqual([null, ev.exceptions[0], null]);
  });

  it('tells which starts a rule produces, for COUNT series and open ones, across DST', () => {
    const berlin = { startsAt: '2026-10-22T07:00:00.000Z', endsAt: '2026-10-22T07:30:00.000Z', timeZone: 'Europe/Berlin' };
    const asked = ['2026-10-24T07:00:00.000Z', '2026-10-26T07:00:00.000Z', '2026-10-26T08:00:00.000Z', '2026-11-05T08:00:00.000Z'].map(Date.parse);
    expect([...producedStarts({ ...berlin, recurrenceRule: 'FREQ=DAILY;COUNT=10' }, asked)].map(iso)).toEqual(['2026-10-24T07:00:00.000Z', '2026-10-26T08:00:00.000Z']);
    expect([...producedStarts({ ...berlin, recurrenceRule: 'FREQ=DAILY' }, asked)].map(iso)).toEqual([
      '2026-10-24T07:00:00.000Z', '2026-10-26T08:00:00.000Z', '2026-11-05T08:00:00.000Z',
    ]);
  });
});

describe('splitting a rule', () => {
  it('keeps every start: the part before and the part from the cut together are the series (300 splits)', () => {
    const next = prng(33);
    for (let n = 0; n < 300; n++) {
      const ev = randomSeries(next) as WithExceptions & { recurrenceRule: string };
      const from = Date.parse(ev.startsAt);
      const all = [...ruleStarts(ev, from, from + 3 * 366 * DAY)];
      if (all.length < 2) continue;
      const at = all[1 + Math.floor(next() * (all.length - 1))];
      const rules = splitRule(ev, at);
      const duration = Date.parse(ev.endsAt) - from;
      const before = [...ruleStarts({ ...ev, recurrenceRule: rules.before }, from, from + 3 * 366 * DAY)];
      const after = [...ruleStarts({ ...ev, startsAt: iso(at), endsAt: iso(at + duration), recurrenceRule: rules.after }, from, from + 3 * 366 * DAY)];
      expect({ n, ev, at: iso(at), starts: [...before, ...after].map(iso) }).toEqual({ n, ev, at: iso(at), starts: all.map(iso) });
    }
  });
});
