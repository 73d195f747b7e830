/** Requests schemathesis found answered wrongly, kept as plain tests so they stay fixed. */
import { useServiceWithUser } from '../support/service';

const svc = useServiceWithUser();

describe('events far from today', () => {
  it('a recurring event that starts before the year 1000 is created (four-digit years for the recurrence engine)', async () => {
    const res = await svc.user.call('POST', '/events', {
      title: 'Old', startsAt: '0907-12-10T18:21:53Z', endsAt: '0907-12-10T19:21:53Z', timeZone: 'Europe/Berlin', recurrenceRule: 'FREQ=WEEKLY;COUNT=3',
    });
    expect(res.status).toBe(201);
  });

  it('an event lasting more than 366 days is refused (400), by body and by partial update, never a 500', async () => {
    // Such events were expanded occurrence by occurrence from their start: seconds per write, or a 500.
    const long = { title: 'Long', startsAt: '0363-05-11T06:46:51Z', endsAt: '2026-11-23T12:47:13Z', timeZone: 'UTC', recurrenceRule: 'FREQ=DAILY' };
    const refused = await svc.user.call('POST', '/events', long);
    expect({ status: refused.status, path: refused.body.error.details.issues[0].path }).toEqual({ status: 400, path: 'body.endsAt' });
    const year = await svc.user.call('POST', '/events', { ...long, startsAt: '2025-11-22T12:47:13Z', recurrenceRule: 'FREQ=WEEKLY' });
    expect(year.status).toBe(201);
    const stretched = await svc.user.call('PATCH', `/events/${year.body.event.id}`, { endsAt: '2030-01-01T00:00:00Z' });
    expect({ status: stretched.status, code: stretched.body.error.code }).toEqual({ status: 400, code: 'invalid_request' });
  });
});
