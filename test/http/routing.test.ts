/** How a request finds its operation (services/http/dispatch.ts): express's matching rules, 405s, and bad paths. */
import { useServiceWithUser } from '../support/service';

const started = useServiceWithUser();
const call = (method: string, path: string, body?: unknown) => started.user.call(method, path, body);
const DAY = 'from=2030-01-01T00:00:00Z&to=2030-01-02T00:00:00Z';

describe('routing', () => {
  it('matches paths without regard to case, and with one trailing slash', async () => {
    const created = await call('POST', '/TASKS/');
    expect(created.status).toBe(400); // found the operation: its body is missing
    expect(created.body.error.message).toContain('a request body is required');
    for (const path of [`/events?${DAY}`, `/EVENTS?${DAY}`, `/events/?${DAY}`, '/Me', '/me/']) {
      expect({ path, status: (await call('GET', path)).status }).toEqual({ path, status: 200 });
    }
    for (const path of ['/events//', '/me//', '/me/x', '/nope']) {
      const res = await call('GET', path);
      expect({ path, status: res.status, code: res.body.error.code }).toEqual({ path, status: 404, code: 'not_found' });
    }
  });

  it('tries paths with parameters after literal ones, and decodes parameters', async () => {
    const catalogue = await call('GET', '/webhooks/event-types');
    expect(catalogue.status).toBe(200);
    expect(catalogue.body.eventTypes.length).toBeGreaterThan(0);
    // A literal path answers 405 for its other methods, though DELETE /webhooks/{id} exists.
    const removed = await call('DELETE', '/webhooks/event-types');
    expect(removed.status).toBe(405);
    expect(removed.headers.get('allow')).toBe('GET');

    const event = await call('POST', '/events', { title: 'Routed', startsAt: '2030-01-01T09:00:00Z', endsAt: '2030-01-01T10:00:00Z' });
    expect(event.status).toBe(201);
    const id = event.body.event.id as string;
    expect((await call('GET', `/Events/${id}/`)).status).toBe(200);
    // Percent-encoded, the id is the same id.
    const encoded = id.replace(/-/g, '%2D');
    expect((await call('GET', `/events/${encoded}`)).body.event?.id).toBe(id);
  });

  it('answers a malformed percent-encoding in a parameter with 400, not 500', async () => {
    const res = await call('GET', '/events/%E0%A4%A');
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid_request', details: { issues: [{ path: 'path.id' }] } });
  });

  it('answers other methods on a known path with 405 and Allow, in the envelope', async () => {
    for (const [method, path, allow] of [['PUT', '/events', 'GET, POST'], ['DELETE', '/sync', 'GET'], ['OPTIONS', '/me', 'GET, PATCH']]) {
      const res = await call(method, path);
      expect({ method, path, status: res.status, allow: res.headers.get('allow'), code: res.body.error.code }).toEqual({
        method, path, status: 405, allow, code: 'method_not_allowed',
      });
    }
  });

  it('serves HEAD through GET, without a body', async () => {
    const get = await call('GET', '/me');
    const head = await call('HEAD', '/me');
    expect(head.status).toBe(200);
    expect(head.body).toBeUndefined();
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
  });
});
