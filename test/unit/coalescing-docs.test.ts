/**
 * Coalesced collections of a catch-up page: written once at the flush, read back before it, refused as the stores
 * refuse, and written first whenever a query or another kind of write could see the difference. The insights
 * projection's weeks, applied as one coalesced page, end as they do event by event.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { coalescing } from '../../projections/coalescing-docs';
import { insightsProjection } from '../../projections/insights.projection';
import type { ProjectionDocs } from '../../projections/projection';
import type { RecordedEvent } from '../../services/eventstore/event-store.port';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { ReadStore } from '../../services/readstore/read-store.port';

let store: ReadStore;
let run = 0;
const docsIn = (prefix: string): ProjectionDocs => (logical) => store.collection(`${prefix}_${logical}`);
let plain: ProjectionDocs;

beforeEach(async () => {
  store = await openEmbeddedReadStore(path.join(mkdtempSync(path.join(tmpdir(), 'coalescing-')), 'read.sqlite'));
  plain = docsIn(`r${run++}`);
});
afterEach(() => store.close());

describe('coalescing docs', () => {
  it('holds the writes of a coalesced collection until the flush, and its reads by id see them', async () => {
    const { docs, flush } = coalescing(plain, new Set(['weeks']));
    await docs('weeks').putIfNewer({ _id: 'w', _pos: 1, total: 1 });
    await docs('weeks').putIfNewer({ _id: 'w', _pos: 2, total: 2 });
    await docs('other').put({ _id: 'o', _pos: 1 });
    expect(await docs('weeks').get('w')).toMatchObject({ total: 2 });
    expect(await plain('weeks').get('w')).toBeNull();
    expect(await plain('other').get('o')).not.toBeNull(); // not coalesced: written at once
    await flush();
    expect(await plain('weeks').get('w')).toMatchObject({ _pos: 2, total: 2 });
  });

  it('refuses what the stores refuse: a position not past the held or stored one, a stored one without a position', async () => {
    await plain('weeks').put({ _id: 'stored', _pos: 5, v: 'stored' });
    await plain('weeks').put({ _id: 'unpositioned', v: 'stored' });
    const { docs, flush } = coalescing(plain, new Set(['weeks']));
    const weeks = docs('weeks');
    expect(await weeks.putIfNewer({ _id: 'stored', _pos: 5, v: 'same' })).toBe(false);
    expect(await weeks.putIfNewer({ _id: 'stored', _pos: 6, v: 'newer' })).toBe(true);
    expect(await weeks.putIfNewer({ _id: 'stored', _pos: 6, v: 'again' })).toBe(false);
    expect(await weeks.putIfNewer({ _id: 'unpositioned', _pos: 9, v: 'newer' })).toBe(false);
    await expect(weeks.putIfNewer({ _id: 'x' } as never)).rejects.toThrow(/numeric _pos/);
    await flush();
    expect(await plain('weeks').get('stored')).toMatchObject({ v: 'newer' });
    expect(await plain('weeks').get('unpositioned')).toMatchObject({ v: 'stored' });
  });

  it('writes what it holds before a query or another kind of write', async () => {
    const { docs } = coalescing(plain, new Set(['weeks']));
    const weeks = docs('weeks');
    await weeks.putIfNewer({ _id: 'a', _pos: 1, userId: 'u' });
    expect(await weeks.count({ userId: 'u' })).toBe(1);
    await weeks.putIfNewer({ _id: 'b', _pos: 2, userId: 'u' });
    expect((await weeks.find({ userId: 'u' })).map((d) => d._id).sort()).toEqual(['a', 'b']);
    await weeks.putIfNewer({ _id: 'c', _pos: 3, userId: 'u' });
    await weeks.delete('a');
    expect((await plain('weeks').find({ userId: 'u' })).map((d) => d._id).sort()).toEqual(['b', 'c']);
    await weeks.put({ _id: 'd', userId: 'u' });
    expect(await weeks.deleteMany({ userId: 'u' })).toBe(3);
  });

  it('gives the insights projection the weeks it reaches event by event', async () => {
    const USER = '11111111-1111-4111-8111-111111111111';
    const SPACE = '22222222-2222-4222-8222-222222222222';
    let position = 0;
    const recorded = (type: string, data: unknown): RecordedEvent => ({
      id: `e${++position}`, type, data, streamId: 's', revision: position, position,
      metadata: { userId: USER, correlationId: 'c', causationId: 'c', occurredAt: '2025-03-01T00:00:00.000Z', schemaVersion: 1 },
    });
    const calendarEvent = (type: string, id: string, startsAt: string, endsAt: string, kind = 'meeting') =>
      recorded(type, { id, spaceId: SPACE, status: 'confirmed', kind, allDay: false, startsAt, endsAt, timeZone: 'Europe/Berlin', recurrenceRule: null });
    const ids = ['33333333-3333-4333-8333-333333333331', '33333333-3333-4333-8333-333333333332'];
    const history = [
      recorded('user.registered', { user: { id: USER, timeZone: 'Europe/Berlin' }, passwordHash: 'x' }),
      recorded('space.created', { space: { id: SPACE, ownerId: USER } }),
      calendarEvent('event.created', ids[0], '2025-03-04T09:00:00.000Z', '2025-03-04T10:00:00.000Z'),
      calendarEvent('event.created', ids[1], '2025-03-05T09:00:00.000Z', '2025-03-05T09:45:00.000Z', 'focus'),
      calendarEvent('event.updated', ids[0], '2025-02-25T09:00:00.000Z', '2025-02-25T09:30:00.000Z', 'focus'),
      calendarEvent('event.updated', ids[1], '2025-03-06T09:00:00.000Z', '2025-03-13T09:00:00.000Z'),
    ];
    const oneByOne = docsIn(`one${run}`);
    for (const e of history) await insightsProjection.apply(e, oneByOne);
    const page = coalescing(docsIn(`page${run}`), new Set(['weeks']));
    for (const e of history) await insightsProjection.apply(e, page.docs);
    await page.flush();
    const weeks = async (docs: ProjectionDocs) => (await docs('weeks').find({ userId: USER })).sort((a, b) => a._id.localeCompare(b._id));
    const expected = await weeks(oneByOne);
    expect(expected.length).toBeGreaterThanOrEqual(3);
    expect(await weeks(docsIn(`page${run}`))).toEqual(expected);
  });
});
