/**
 * The phrases requests are made of: amounts of time, clock times, days, parts of the day and weeks. Each recognizer
 * looks at the tokens from index `i` and answers the value and the index after the phrase, or null.
 */
import type { Token } from './tokens';

export interface Match<T> {
  value: T;
  end: number;
}
type Recognizer<T> = (t: readonly Token[], i: number) => Match<T> | null;

export type DayPeriod = 'morning' | 'afternoon' | 'evening';
/** A day relative to today: some days ahead, or a weekday (1 Monday … 7 Sunday; `includeToday` for "this friday"). */
export type DayRef = { kind: 'offset'; days: number } | { kind: 'weekday'; weekday: number; includeToday: boolean };
export type WeekRef = 'this_week' | 'next_week' | 'weekend';
/** A clock time; `bare` when no am/pm or 24-hour form said which half of the day. */
export interface ClockTime {
  minute: number;
  bare: boolean;
}

const word = (t: readonly Token[], i: number) => (t[i]?.kind === 'word' ? t[i].text : undefined);
const isWord = (t: readonly Token[], i: number, ...options: string[]) => options.includes(word(t, i) ?? '\u0000');

const SMALL: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
};
const TENS: Record<string, number> = { twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90 };

function wordNumber(text: string): number | undefined {
  if (text in SMALL) return SMALL[text];
  if (text in TENS) return TENS[text];
  const [tens, unit] = text.split('-');
  return tens in TENS && unit in SMALL && SMALL[unit] > 0 && SMALL[unit] < 10 ? TENS[tens] + SMALL[unit] : undefined;
}

/** 45, 1.5, "forty five", "forty-five", "twelve". */
export const number: Recognizer<number> = (t, i) => {
  const token = t[i];
  if (token?.kind === 'number') return { value: token.value, end: i + 1 };
  const value = token?.kind === 'word' ? wordNumber(token.text) : undefined;
  if (value === undefined) return null;
  const unit = value >= 20 && value % 10 === 0 ? SMALL[word(t, i + 1) ?? ''] : undefined;
  return unit !== undefined && unit > 0 && unit < 10 ? { value: value + unit, end: i + 2 } : { value, end: i + 1 };
};

const HOUR_WORDS = ['hour', 'hours', 'hr', 'hrs', 'h'];
const MINUTE_WORDS = ['minute', 'minutes', 'min', 'mins', 'm', 'mn'];

function unitAt(t: readonly Token[], i: number): Match<number> | null {
  if (isWord(t, i, ...HOUR_WORDS)) return { value: 60, end: i + 1 };
  if (isWord(t, i, ...MINUTE_WORDS)) return { value: 1, end: i + 1 };
  return null;
}

/** "and a half" after an amount. */
const andAHalf = (t: readonly Token[], i: number) => (isWord(t, i, 'and') && isWord(t, i + 1, 'a') && isWord(t, i + 2, 'half') ? i + 3 : null);

/** One amount with its unit: "45 minutes", "an hour", "1.5h", "one and a half hours", "an hour and a half", "half an hour". */
function amount(t: readonly Token[], i: number): Match<number> | null {
  if (isWord(t, i, 'half-hour', 'half-an-hour')) return { value: 30, end: i + 1 };
  if (isWord(t, i, 'half')) {
    const j = isWord(t, i + 1, 'an', 'a') ? i + 2 : i + 1;
    return isWord(t, j, 'hour') ? { value: 30, end: j + 1 } : null;
  }
  const article = isWord(t, i, 'a', 'an') ? i + 1 : i;
  if (isWord(t, article, 'quarter')) {
    let j = article + 1;
    if (isWord(t, j, 'of') && isWord(t, j + 1, 'an')) j += 2;
    return isWord(t, j, 'hour') ? { value: 15, end: j + 1 } : null;
  }
  if (isWord(t, article, 'couple') && isWord(t, article + 1, 'of')) {
    const unit = unitAt(t, article + 2);
    return unit && { value: 2 * unit.value, end: unit.end };
  }
  let count: Match<number> | null = article > i ? { value: 1, end: article } : number(t, i);
  if (!count) return null;
  const half = andAHalf(t, count.end);
  if (half !== null) count = { value: count.value + 0.5, end: half };
  const unit = unitAt(t, count.end);
  if (!unit) return null;
  const trailingHalf = unit.value === 60 ? andAHalf(t, unit.end) : null;
  if (trailingHalf !== null) return { value: (count.value + 0.5) * 60, end: trailingHalf };
  return { value: count.value * unit.value, end: unit.end };
}

/** A length of time in whole minutes (1-1440), "for" optional: "for 45 min", "1 hour 30 minutes", "an hour and 15 minutes". */
export const duration: Recognizer<number> = (t, i) => {
  const start = isWord(t, i, 'for') ? i + 1 : i;
  const first = amount(t, start);
  if (!first) return null;
  let { value, end } = first;
  if (first.value % 60 === 0 || first.value > 59) {
    const rest = amount(t, isWord(t, end, 'and') ? end + 1 : end);
    if (rest && rest.value < 60) ({ value, end } = { value: value + rest.value, end: rest.end });
  }
  const minutes = Math.round(value);
  return minutes >= 1 && minutes <= 1440 ? { value: minutes, end } : null;
};

/** Hours said without am/pm: 1-7 are afternoon hours, 8-11 morning ones. */
const bareHour = (hour: number) => (hour >= 1 && hour <= 7 ? hour + 12 : hour);

function meridiem(t: readonly Token[], i: number): Match<'am' | 'pm'> | null {
  if (isWord(t, i, 'am', 'pm')) return { value: word(t, i) as 'am' | 'pm', end: i + 1 };
  if (isWord(t, i, 'a', 'p') && isWord(t, i + 1, 'm')) return { value: `${word(t, i)}m` as 'am' | 'pm', end: i + 2 };
  return null;
}

function withMeridiem(hour: number, minute: number, half: 'am' | 'pm'): number | null {
  if (hour < 1 || hour > 12) return null;
  return ((hour % 12) + (half === 'pm' ? 12 : 0)) * 60 + minute;
}

/**
 * A clock time: "3pm", "3:30 pm", "15:00", "noon", "midnight", "3 o'clock", and after "at" a bare hour ("at 3").
 * "at" itself is part of the phrase. `loose` takes a bare hour anywhere (where only a time can follow: "to 4").
 */
export function clock(t: readonly Token[], i: number, loose = false): Match<ClockTime> | null {
  const at = isWord(t, i, 'at') || t[i]?.text === '@';
  const j = at ? i + 1 : i;
  if (isWord(t, j, 'noon', 'midday')) return { value: { minute: 720, bare: false }, end: j + 1 };
  if (isWord(t, j, 'midnight')) return { value: { minute: 0, bare: false }, end: j + 1 };
  const token = t[j];
  if (token?.kind === 'clock') {
    const half = meridiem(t, j + 1);
    if (half) {
      const minute = withMeridiem(token.hour, token.minute, half.value);
      return minute === null ? null : { value: { minute, bare: false }, end: half.end };
    }
    if (token.hour > 23) return null;
    const bare = token.hour >= 1 && token.hour <= 12 && !token.raw.startsWith('0');
    return { value: { minute: (bare ? bareHour(token.hour) : token.hour) * 60 + token.minute, bare }, end: j + 1 };
  }
  const hour = number(t, j);
  if (!hour || !Number.isInteger(hour.value)) return null;
  const half = meridiem(t, hour.end);
  if (half) {
    const minute = withMeridiem(hour.value, 0, half.value);
    return minute === null ? null : { value: { minute, bare: false }, end: half.end };
  }
  const oclock = isWord(t, hour.end, "o'clock", 'oclock');
  if ((oclock || at || loose) && hour.value >= 0 && hour.value <= 23) {
    return { value: { minute: bareHour(hour.value) * 60, bare: hour.value <= 12 }, end: oclock ? hour.end + 1 : hour.end };
  }
  return null;
}

const WEEKDAYS: Record<string, number> = {
  monday: 1, mon: 1, tuesday: 2, tue: 2, tues: 2, wednesday: 3, wed: 3, thursday: 4, thu: 4, thur: 4, thurs: 4,
  friday: 5, fri: 5, saturday: 6, sat: 6, sunday: 7, sun: 7,
};
const TOMORROW = ['tomorrow', 'tmrw', 'tmr', 'tmrrw', 'tomorow', 'tommorow', 'tommorrow'];

/** "friday's" -> "friday", "tomorrow's" -> "tomorrow". */
const bareWord = (t: readonly Token[], i: number) => word(t, i)?.replace(/'s$/, '');

/**
 * A day: "today", "tonight", "tomorrow" (also "tmrw"), "the day after tomorrow", "in 3 days", a weekday ("friday",
 * "fri", "on friday", "this friday", "next friday"). Plain and "next" weekdays are the first such day after today;
 * "this <weekday>" may be today.
 */
export const day: Recognizer<DayRef> = (t, i) => {
  let j = isWord(t, i, 'on', 'for') ? i + 1 : i;
  const w = bareWord(t, j);
  if (w === 'today' || w === 'tonight') return { value: { kind: 'offset', days: 0 }, end: j + 1 };
  if (w && TOMORROW.includes(w)) return { value: { kind: 'offset', days: 1 }, end: j + 1 };
  const the = isWord(t, j, 'the') ? j + 1 : j;
  if (isWord(t, the, 'day') && isWord(t, the + 1, 'after') && TOMORROW.includes(bareWord(t, the + 2) ?? '')) {
    return { value: { kind: 'offset', days: 2 }, end: the + 3 };
  }
  if (isWord(t, j, 'in')) {
    const count = number(t, j + 1);
    if (count && Number.isInteger(count.value) && count.value <= 366 && isWord(t, count.end, 'day', 'days')) {
      return { value: { kind: 'offset', days: count.value }, end: count.end + 1 };
    }
    return null;
  }
  let includeToday = false;
  if (isWord(t, j, 'this') && isWord(t, j + 1, 'coming')) j += 2;
  else if (isWord(t, j, 'this')) {
    includeToday = true;
    j++;
  } else if (isWord(t, j, 'next', 'coming')) j++;
  const weekday = WEEKDAYS[bareWord(t, j) ?? ''];
  return weekday ? { value: { kind: 'weekday', weekday, includeToday }, end: j + 1 } : null;
};

const PERIODS: Record<string, DayPeriod> = { morning: 'morning', afternoon: 'afternoon', evening: 'evening', tonight: 'evening', night: 'evening' };

/** A part of the day, maybe with its day: "morning", "in the afternoon", "this evening" (today), "tonight" (today). */
export const period: Recognizer<{ period: DayPeriod; today: boolean }> = (t, i) => {
  let j = i;
  if (isWord(t, j, 'in') && isWord(t, j + 1, 'the')) j += 2;
  else if (isWord(t, j, 'during', 'for') && isWord(t, j + 1, 'the')) j += 2;
  const today = isWord(t, j, 'this') || isWord(t, j, 'tonight');
  if (isWord(t, j, 'this')) j++;
  const found = PERIODS[word(t, j) ?? ''];
  return found ? { value: { period: found, today: today || word(t, j) === 'tonight' }, end: j + 1 } : null;
};

/** "this week", "the rest of the week", "next week", "this weekend", "the weekend". */
export const week: Recognizer<WeekRef> = (t, i) => {
  let j = isWord(t, i, 'for', 'in', 'during', 'over') ? i + 1 : i;
  if (isWord(t, j, 'the') && isWord(t, j + 1, 'rest') && isWord(t, j + 2, 'of')) j += 3;
  else if (isWord(t, j, 'rest') && isWord(t, j + 1, 'of')) j += 2;
  const which = word(t, j);
  const next = which === 'next' || which === 'following';
  if (which === 'this' || which === 'the' || next) j++;
  if (isWord(t, j, 'week')) return { value: next ? 'next_week' : 'this_week', end: j + 1 };
  if (isWord(t, j, 'weekend')) return { value: 'weekend', end: j + 1 };
  return null;
};
