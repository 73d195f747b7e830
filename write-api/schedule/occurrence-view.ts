import type { Event, EventOccurrence, OccurrenceException } from '../../contracts/events';
import type { Instance } from '../../services/time/recurrence';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * One occurrence of a series as the API shows it: the series' fields with the occurrence's own where it has them,
 * at its real time, `occurrenceStartsAt` its original start; the series' exception list is not repeated.
 */
export function occurrenceView(series: Event, o: Instance<OccurrenceException>): EventOccurrence {
  const { exceptions: _exceptions, ...fields } = series;
  const { occurrenceStartsAt: _original, cancelled: _cancelled, ...own } = o.change ?? {};
  return { ...fields, ...own, startsAt: iso(o.start), endsAt: iso(o.end), seriesId: series.id, occurrenceStartsAt: iso(o.original) };
}

/** A single event as a list item: no series, no exceptions. */
export function singleView(event: Event): EventOccurrence {
  const { exceptions: _exceptions, ...fields } = event;
  return { ...fields, seriesId: null, occurrenceStartsAt: null };
}
