/**
 * Schema evolution end to end: `event.created` v1 events (before the planner's `taskId`/`goalId`, and v2's
 * `reminders`/`exceptions`) stored as they were, through the adapter underneath, read as v4 (with v4's `icalUid`/`icalRecurrenceId` null) through the store
 * (deciders), the projections (GET) and the store API the export reads.
 */
import { randomUUID } from 'node:crypto';
import { historyStore } from '../../services/eventstore/decoding-event-store';
import { type Client, signUp, useTestService, type TestService } from '../support/service';

let svc: TestService;
let base: string;
useTestService((started) => ((svc = started), (base = started.base)));

/** An event as a v1 writer recorded it: no `taskId`, no `goalId`, schemaVersion 1, data in clear. */
async function storeV1Event(c: Client, title: string) {
  const me = (await c.call('GET', '/me')).body;
  const profile = me.user ?? me;
  const id = randomUUID();
  const now = new Date().toISOString();
  const data = {
    id, spaceId: profile.personalSpaceId, calendarId: profile.defaultCalendarId, title, description: null, location: null,
    meetingUrl: null, kind: 'meeting', startsAt: '2031-07-01T09:00:00.000Z', endsAt: '2031-07-01T10:00:00.000Z',
    timeZone: 'UTC', allDay: false, busy: true, recurrenceRule: null, resources: [], attendees: [], allowOverlap: false,
    status: 'confirmed', createdBy: c.userId, createdAt: now, updatedAt: now, deletedAt: null, version: 1,
  };
  const stream = `space-${profile.personalSpaceId}`;
  const metadata = { userId: c.userId, correlationId: id, causationId: id, occurredAt: now, schemaVersion: 1 };
  const { position } = await svc.service.ports.events.append(stream, [{ id: randomUUID(), type: 'event.created', data, metadata }], 'any');
  return { id, stream, position };
}

describe('schema evolution: event.* v1 -> v4', () => {
  it('reads stored v1 events as v4 through the store, the projections, the decider and the export', async () => {
    const c = await signUp(base);
    const v1 = await storeV1Event(c, 'Recorded by v1');
    const [stored] = await svc.service.ports.events.readStream(v1.stream, 0).then((all) => all.filter((e) => e.position === v1.position));
    expect(stored.metadata.schemaVersion).toBe(1);
    expect(stored.data).not.toHaveProperty('taskId');

    // The store every reader goes through.
    const [read] = (await svc.service.context.events.readStream(v1.stream)).filter((e) => e.position === v1.position);
    expect(read.metadata.schemaVersion).toBe(4);
    expect(read.data).toMatchObject({
      id: v1.id, title: 'Recorded by v1', taskId: null, goalId: null, reminders: [], exceptions: [], icalUid: null, icalRecurrenceId: null,
    });

    // The projections (GET reads them) and the decider (the PATCH folds the stream).
    const got = await c.call('GET', `/events/${v1.id}`, undefined, { 'X-Calendar-Min-Position': String(v1.position) });
    expect(got.status).toBe(200);
    expect(got.body.event).toMatchObject({ title: 'Recorded by v1', taskId: null, goalId: null, reminders: [], exceptions: [] });
    const doc = await (await svc.service.context.readModels.docs('schedule'))('events').get(v1.id);
    expect(doc).toMatchObject({ taskId: null, goalId: null, exceptions: [] });
    const patched = await c.call('PATCH', `/events/${v1.id}`, { title: 'Renamed by v2' });
    expect(patched.status).toBe(200);
    expect(patched.body.event).toMatchObject({ title: 'Renamed by v2', taskId: null, goalId: null, version: 2 });

    // The export's store API (a fresh decoding store over the same adapters, as the CLI opens it).
    const exported = await historyStore(svc.service.ports.events, svc.service.ports.store).events.readAll(v1.position - 1, 100);
    const [old, renamed] = exported.filter((e) => (e.data as { id?: string } | null)?.id === v1.id);
    expect(old).toMatchObject({ metadata: { schemaVersion: 4 }, data: { title: 'Recorded by v1', taskId: null, goalId: null, exceptions: [], icalUid: null } });
    expect(renamed).toMatchObject({ type: 'event.updated', metadata: { schemaVersion: 4 }, data: { title: 'Renamed by v2' } });
    const [storedRename] = (await svc.service.ports.events.readAll(v1.position, 100)).filter((e) => e.id === renamed.id);
    expect(storedRename.metadata.schemaVersion).toBe(4); // new writes are recorded at the current version
  });
});
