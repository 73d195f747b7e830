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

  it('invites each newly invited user once: an event inviting no one writes nothing, removed and invited again is invited again', async () => {
    const GUEST = '22222222-2222-4222-8222-222222222222';
    const version = (attendees: string[], status = 'confirmed') => ({
      id: `event-${position}`, status, createdBy: HOST, title: 'Review',
      attendees: attendees.map((userId) => ({ email: `${userId}@example.com`, name: null, userId, response: 'needs_action' })),
    });
    const alone = recorded('event.created', version([HOST]));
    await notificationsProjection.apply(alone, docs);
    expect(await docs('invitees').get((alone.data as { id: string }).id)).toBeNull();

    const id = `event-${position}`;
    const apply = async (attendees: string[], type = 'event.updated') => {
      const e = recorded(type, { ...version(attendees), id });
      await notificationsProjection.apply(e, docs);
      return e;
    };
    const created = await apply([], 'event.created');
    expect(await docs('invitees').get(id)).toBeNull();
    const invited = await apply([HOST, GUEST]);
    await apply([HOST, GUEST]); // still invited: no second notification
    await apply([HOST]);
    expect(await docs('invitees').get(id)).toMatchObject({ userIds: [] });
    const again = await apply([GUEST]);
    const made = await docs('notifications').find({ userId: GUEST });
    expect(made.map((n) => n.sourceEventId).sort()).toEqual([invited.id, again.id].sort());
    expect(made.map((n) => n.sourceEventId)).not.toContain(created.id);
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
