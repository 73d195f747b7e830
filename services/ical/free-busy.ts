/** Busy time as a VFREEBUSY (RFC 5545 3.6.4), the answer to a CalDAV free-busy-query (RFC 4791 7.10). */
import ICAL from 'ical.js';

const utc = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/** `busy`: [start, end) intervals in ms, merged or not; written in order, one FREEBUSY property each. */
export function writeFreeBusy(busy: ReadonlyArray<{ start: number; end: number }>, from: number, to: number): string {
  const periods = [...busy].sort((a, b) => a.start - b.start);
  const props = [
    ['dtstamp', {}, 'date-time', utc(Date.now())],
    ['dtstart', {}, 'date-time', utc(from)],
    ['dtend', {}, 'date-time', utc(to)],
    ...periods.map((p) => ['freebusy', { fbtype: 'BUSY' }, 'period', [utc(p.start), utc(p.end)]]),
  ];
  const calendar = ['vcalendar', [['version', {}, 'text', '2.0'], ['prodid', {}, 'text', '-//Calendar Service//Calendar Service//EN']], [['vfreebusy', props, []]]];
  return `${ICAL.stringify(calendar as unknown as Parameters<typeof ICAL.stringify>[0])}\r\n`;
}
