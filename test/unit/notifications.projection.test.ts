/** The notifications and devices projections never stop on an event they cannot use, and replays change nothing. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { devicesProjection } from '../../projections/devices.projection';
import { notificationsProjection } from '../../projections/notifications.projection';
import type { ProjectionDocs } from '../../projections/projection';
import type { RecordedEvent } from '../../services/eventstore/event-store.port';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { ReadStore } from '../../services/readstore/read-store.port';
import { bookingPayload } from '../support/domain-events';

const HOST = '11111111-1111-4111-8111-111111111111';
let store: ReadStore;
let docs: ProjectionDocs;
let position = 0;

beforeAll(async () => {
  store = await openEmbeddedReadStore(path.join(mkdtempSync(path.join(tmpdir(), 'notifications-projection-')), 'read.sqlite'));
  docs = (name) => store.collection(`test_${name}`);
});
afterAll(() => store.close());

const recorded = (type: string, data: unknown, id = `e-${++position}`): RecordedEvent => ({
  id, type, data, streamId: `s-${id}`, revision: 0, position: ++position,
  metadata: { userId: null, correlationId: id, causationId: id, occurredAt: '2031-05-01T08:00:00.000Z', schemaVersion: 1 },
});

describe('notifications projection', () => {
  const unusable: Array<[string, unknown]> = [
    ...notificationsProjection.handles.map((type): [string, unknown] => [type, null]),
    ...notificationsProjection.handles.map((type): [string, unknown] => [type, { unexpected: true }]),
    ['booking.created', { ...bookingPayload(HOST), guest: 'not an object' }],
    ['event.updated', { id: 'x', attendees: 'nobody' }],
    ['task.assigned', { id: 't', title: 'No assignee', assigneeId: null }],
  ];
  it.each(unusable)('ignores %s with unusable data %j', async (type, data) => {
    await expect(notificationsProjection.apply(recorded(type, data), docs)).resolves.toBeUndefined();
    await expect(devicesProjection.apply(recorded('device.registered', data), docs)).resolves.toBeUndefined();
  });

  it('a replayed event writes the same notification once', async () => {
    const event = recorded('booking.created', bookingPayload(HOST));
    await notificationsProjection.apply(event, docs);
    await notificationsProjection.apply(event, docs);
    const made = await docs('notifications').find({ sourceEventId: event.id });
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ userId: HOST, kind: 'booking_created', _pos: event.position });
  });
});
