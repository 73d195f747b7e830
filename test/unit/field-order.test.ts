/** The cross-field order rule (`laterThan`) as route.ts applies it to any query or body schema. */
import { z } from 'zod';
import { DateTime, DateTimeAfter, IsoDate, laterThan } from '../../contracts/common';
import { fieldOrderIssues } from '../../services/http/field-order';

const Range = z.object({ from: DateTime, to: DateTimeAfter('from', 366) });
const Patch = z.object({ startsAt: DateTime, endsAt: DateTimeAfter('startsAt') }).partial();
const Minute = z.number().int().min(0).max(1440);
const Period = z.object({ startMinute: Minute, endMinute: laterThan(Minute, 'startMinute') });
const Routine = z.object({ periods: z.array(Period).max(10).optional() });
const Days = z.object({ from: IsoDate, to: laterThan(IsoDate, 'from', { orEqual: true }) });

describe('fieldOrderIssues', () => {
  it('passes a later field that follows the earlier one within the bound', () => {
    expect(fieldOrderIssues(Range, { from: '2026-01-01T00:00:00Z', to: '2026-01-01T00:00:01Z' }, 'query')).toEqual([]);
    expect(fieldOrderIssues(Range, { from: '2026-01-01T00:00:00Z', to: '2027-01-02T00:00:00Z' }, 'query')).toEqual([]);
  });

  it('refuses an equal or earlier value, and one past the bound, naming the field (offsets compared as instants)', () => {
    expect(fieldOrderIssues(Range, { from: '2026-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, 'query'))
      .toEqual([{ path: 'query.to', message: 'must be after from' }]);
    expect(fieldOrderIssues(Range, { from: '2026-01-01T10:00:00+02:00', to: '2026-01-01T08:30:00Z' }, 'query')).toEqual([]);
    expect(fieldOrderIssues(Range, { from: '2026-01-01T10:00:00+02:00', to: '2026-01-01T07:59:00Z' }, 'query'))
      .toEqual([{ path: 'query.to', message: 'must be after from' }]);
    expect(fieldOrderIssues(Range, { from: '2026-01-01T00:00:00Z', to: '2027-01-02T00:00:01Z' }, 'query'))
      .toEqual([{ path: 'query.to', message: 'at most 366 days after from' }]);
  });

  it('compares only when both fields are present (partial bodies), through optional wrappers', () => {
    expect(fieldOrderIssues(Patch, { endsAt: '2020-01-01T00:00:00Z' }, 'body')).toEqual([]);
    expect(fieldOrderIssues(Patch, { startsAt: '2026-01-01T10:00:00Z', endsAt: '2026-01-01T09:00:00Z' }, 'body'))
      .toEqual([{ path: 'body.endsAt', message: 'must be after startsAt' }]);
  });

  it('compares numbers, and walks nested arrays of objects', () => {
    const body = { periods: [{ startMinute: 420, endMinute: 480 }, { startMinute: 600, endMinute: 600 }] };
    expect(fieldOrderIssues(Routine, body, 'body')).toEqual([{ path: 'body.periods.1.endMinute', message: 'must be after startMinute' }]);
  });

  it('with orEqual, the same value passes and an earlier one does not', () => {
    expect(fieldOrderIssues(Days, { from: '2026-03-02', to: '2026-03-02' }, 'query')).toEqual([]);
    expect(fieldOrderIssues(Days, { from: '2026-03-02', to: '2026-03-01' }, 'query'))
      .toEqual([{ path: 'query.to', message: 'must be at or after from' }]);
  });

  it('publishes the rule for tools: x-after / x-not-before / x-max-days-after, and says it in the description', () => {
    const range = z.toJSONSchema(Range, { io: 'input' }) as { properties: Record<string, Record<string, unknown>> };
    expect(range.properties.to).toEqual(expect.objectContaining({ 'x-after': 'from', 'x-max-days-after': 366 }));
    expect(range.properties.to.description).toMatch(/After `from` and at most 366 days after it/);
    const days = z.toJSONSchema(Days, { io: 'input' }) as { properties: Record<string, Record<string, unknown>> };
    expect(days.properties.to).toEqual(expect.objectContaining({ 'x-not-before': 'from' }));
  });
});
