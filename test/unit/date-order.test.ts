/** The cross-field date rule (`DateTimeAfter`) as route.ts applies it to any query or body schema. */
import { z } from 'zod';
import { DateTime, DateTimeAfter } from '../../contracts/common';
import { dateOrderIssues } from '../../services/http/date-order';

const Range = z.object({ from: DateTime, to: DateTimeAfter('from', 366) });
const Patch = z.object({ startsAt: DateTime, endsAt: DateTimeAfter('startsAt') }).partial();

describe('dateOrderIssues', () => {
  it('passes a later field that follows the earlier one within the bound', () => {
    expect(dateOrderIssues(Range, { from: '2026-01-01T00:00:00Z', to: '2026-01-01T00:00:01Z' }, 'query')).toEqual([]);
    expect(dateOrderIssues(Range, { from: '2026-01-01T00:00:00Z', to: '2027-01-02T00:00:00Z' }, 'query')).toEqual([]);
  });

  it('refuses an equal or earlier value, and one past the bound, naming the field', () => {
    expect(dateOrderIssues(Range, { from: '2026-01-01T00:00:00Z', to: '2026-01-01T00:00:00Z' }, 'query'))
      .toEqual([{ path: 'query.to', message: 'must be after from' }]);
    expect(dateOrderIssues(Range, { from: '2026-01-01T10:00:00+02:00', to: '2026-01-01T08:30:00Z' }, 'query'))
      .toEqual([]);
    expect(dateOrderIssues(Range, { from: '2026-01-01T10:00:00+02:00', to: '2026-01-01T07:59:00Z' }, 'query'))
      .toEqual([{ path: 'query.to', message: 'must be after from' }]);
    expect(dateOrderIssues(Range, { from: '2026-01-01T00:00:00Z', to: '2027-01-02T00:00:01Z' }, 'query'))
      .toEqual([{ path: 'query.to', message: 'at most 366 days after from' }]);
  });

  it('compares only when both fields are present (partial bodies), through optional wrappers', () => {
    expect(dateOrderIssues(Patch, { endsAt: '2020-01-01T00:00:00Z' }, 'body')).toEqual([]);
    expect(dateOrderIssues(Patch, { startsAt: '2026-01-01T10:00:00Z', endsAt: '2026-01-01T09:00:00Z' }, 'body'))
      .toEqual([{ path: 'body.endsAt', message: 'must be after startsAt' }]);
  });

  it('publishes the rule for tools: x-after and x-max-days-after in the JSON Schema', () => {
    const json = z.toJSONSchema(Range, { io: 'input' }) as { properties: Record<string, Record<string, unknown>> };
    expect(json.properties.to).toEqual(expect.objectContaining({ 'x-after': 'from', 'x-max-days-after': 366 }));
  });
});
