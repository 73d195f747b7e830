/**
 * Erasing a user end to end (crypto-shredding): their reads and credentials are gone, another user's /sync reports
 * the shared items in `deleted`, the log keeps the events but not their data, a rebuild brings nothing back, and
 * the email can be used again. Contract: api-spec.md "Sync" (erased items in `deleted`), issue 13.
 */
import { randomUUID } from 'node:crypto';
import type { RecordedEvent } from '../../services/eventstore/event-store.port';
import { REGISTRY } from '../../projections/registry';
import { ok, request, signUp, type TestService, useTestService } from '../support/service';
import { shareASpace } from '../support/sharing';

const ADMIN_TOKEN = 'erasure-admin-token';
let svc: TestService;
let base: string;
useTestService((started) => ((svc = started), (base = started.base)), { ADMIN_TOKEN });

const admin = (path: string, token = ADMIN_TOKEN) =>
  request(base.replace('/api/v1', ''), 'POST', `/admin${path}`, undefined, { authorization: `Bearer ${token}` });

const SECRET = `Ada's dentist appointment ${randomUUID()}`;

/** Everything the log holds, as stored (below the decoding store) and as readers get it. */
async function wholeLog(store: { readAll(after: number, limit: number): Promise<RecordedEvent[]> }) {
  const out: RecordedEvent[] = [];
  for (let page = await store.readAll(0, 1000); page.length; page = await store.readAll(page[page.length - 1].position, 1000)) out.push(...page);
  return out;
}

async function rebuild(name: string): Promise<void> {
  const registry = svc.service.ports.store.collection(REGISTRY);
  const before = (await registry.get(name))!.active;
  await svc.service.runner!.rebuild(name);
  for (let i = 0; i < 200; i++) {
    const reg = await registry.get(name);
    if (reg!.active !== before && !reg!.building) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`rebuild of ${name} did not finish`);
}

describe('user erasure', () => {
  it('refuses without the admin token, for a malformed id and for an unknown user', async () => {
    expect((await admin(`/users/${randomUUID()}/erase`, 'wrong')).status).toBe(401);
    const malformed = await admin('/users/not-a-uuid/erase');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.details.issues[0].path).toBe('params.id');
    expect((await admin(`/users/${randomUUID()}/erase`)).status).toBe(404);
  });

  it('erases a user\'s data everywhere while the other user keeps theirs', async () => {
    const [ada, bob] = await Promise.all([signUp(base, { name: 'Ada Lovelace' }), signUp(base)]);
    const start = new Date(Date.UTC(2031, 5, 2, 9)).toISOString();
    const end = new Date(Date.UTC(2031, 5, 2, 10)).toISOString();
    const event = (await ok(ada, 'POST', '/events', { title: SECRET, startsAt: start, endsAt: end, attendees: [{ email: bob.email }] })).event;
    await shareASpace(ada, bob);
    const task = (await ok(ada, 'POST', '/tasks', { title: SECRET, notes: 'private notes', assigneeId: bob.userId })).task;
    const routine = (await ok(ada, 'POST', '/routines', {
      name: SECRET, days: [1, 2, 3], periods: [{ name: 'Morning', startMinute: 420, endMinute: 480, items: [{ title: 'Stretch' }] }],
    })).routine;
    const bobsEvent = (await ok(bob, 'POST', '/events', { title: 'Bob keeps this', startsAt: start, endsAt: end })).event;
    const bobsCursor = (await ok(bob, 'GET', '/sync?since=1970-01-01T00:00:00Z')).cursor as string;
    await ok(bob, 'PATCH', `/tasks/${task.id}`, { status: 'done' }); // the assignee's change restates Ada's task
    expect((await ok(bob, 'GET', '/tasks')).tasks.map((t: { id: string }) => t.id)).toContain(task.id);
    expect((await ok(bob, 'GET', '/inbox')).items.map((i: { event: { id: string } }) => i.event.id)).toContain(event.id);

    const erased = await admin(`/users/${ada.userId}/erase`);
    expect(erased.status).toBe(200);
    expect(erased.body).toMatchObject({ userId: ada.userId, erasedAt: expect.any(String), applied: true });

    // Ada can neither use her session nor sign in again.
    expect((await ada.call('GET', '/tasks')).status).toBe(401);
    expect((await request(base, 'POST', '/auth/login', { email: ada.email, password: 'correct horse' })).status).toBe(401);

    // Bob's reads lose Ada's items, keep his own, and his sync reports the shared task as erased.
    expect((await ok(bob, 'GET', '/tasks')).tasks.map((t: { id: string }) => t.id)).not.toContain(task.id);
    expect((await bob.call('GET', `/tasks/${task.id}`)).status).toBe(404);
    expect((await ok(bob, 'GET', '/inbox')).items).toEqual([]);
    expect((await bob.call('GET', `/events/${event.id}`)).status).toBe(404);
    expect((await ok(bob, 'GET', `/events/${bobsEvent.id}`)).event.title).toBe('Bob keeps this');
    const sync = await ok(bob, 'GET', `/sync?since=${encodeURIComponent(bobsCursor)}`);
    expect(sync.deleted).toContainEqual({ type: 'tasks', id: task.id });
    expect(JSON.stringify(sync)).not.toContain(SECRET);
    expect((await ok(bob, 'GET', '/sync?since=1970-01-01T00:00:00Z')).deleted).toContainEqual({ type: 'tasks', id: task.id });

    // The log keeps every event; none holds Ada's data in clear, and readers (exports) get them redacted.
    const stored = await wholeLog(svc.service.ports.events);
    const read = await wholeLog(svc.service.context.events);
    expect(read.map((e) => e.id)).toEqual(stored.map((e) => e.id));
    expect(JSON.stringify(stored)).not.toContain(SECRET);
    expect(JSON.stringify(read)).not.toContain(SECRET);
    expect(JSON.stringify(stored)).not.toContain(ada.email);
    const adas = read.filter((e) => e.metadata.userId === ada.userId);
    expect(adas.length).toBeGreaterThan(5);
    for (const e of adas) expect(e).toMatchObject({ data: null, redacted: 'erased' });
    const bobsStatus = read.find((e) => e.type.startsWith('task.') && e.metadata.userId === bob.userId)!;
    expect(bobsStatus).toMatchObject({ data: null, redacted: 'erased' }); // sealed under Ada's key too
    expect(read.find((e) => e.type === 'user.erased')).toMatchObject({ data: { userId: ada.userId } });

    // Rebuilt read models bring nothing back.
    for (const name of ['schedule', 'tasks', 'routines', 'inbox', 'accounts']) await rebuild(name);
    expect((await ok(bob, 'GET', '/tasks')).tasks.map((t: { id: string }) => t.id)).not.toContain(task.id);
    expect((await bob.call('GET', `/events/${event.id}`)).status).toBe(404);
    expect((await ok(bob, 'GET', `/events/${bobsEvent.id}`)).event.title).toBe('Bob keeps this');
    expect((await ok(bob, 'GET', `/sync?since=${encodeURIComponent(bobsCursor)}`)).deleted).toContainEqual({ type: 'tasks', id: task.id });
    const models = svc.service.context.readModels;
    expect(await (await models.docs('routines'))('routines').get(routine.id)).toBeNull();
    expect(await (await models.docs('accounts'))('users').get(ada.userId)).toBeNull();
    expect((await request(base, 'POST', '/auth/login', { email: ada.email, password: 'correct horse' })).status).toBe(401);

    // Erasing again changes nothing; the email is free for a new account.
    const again = await admin(`/users/${ada.userId}/erase`);
    expect(again.body).toMatchObject({ erasedAt: erased.body.erasedAt, position: erased.body.position });
    expect((await request(base, 'POST', '/auth/signup', { email: ada.email, password: 'correct horse', name: 'New' })).status).toBe(201);
  });

  it('keeps no email in clear in claim stream ids', async () => {
    const c = await signUp(base);
    const streams = (await wholeLog(svc.service.ports.events)).map((e) => e.streamId);
    expect(streams.some((s) => s.startsWith('email-'))).toBe(true);
    expect(streams.join('\n')).not.toContain(c.email.split('@')[0]);
  });
});
