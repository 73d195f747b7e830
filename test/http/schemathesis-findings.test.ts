/** Requests schemathesis found answered wrongly, kept as plain tests so they stay fixed. */
import { signUp, useTestService, type Client } from '../support/service';

let base: string;
let c: Client;
useTestService((svc) => {
  base = svc.base;
});
beforeAll(async () => {
  c = await signUp(base);
});

describe('events far from today', () => {
  it('a recurring event that starts before the year 1000 is created (four-digit years for the recurrence engine)', async () => {
    const res = await c.call('POST', '/events', {
      title: 'Old', startsAt: '0907-12-10T18:21:53Z', endsAt: '0907-12-10T19:21:53Z', timeZone: 'Europe/Berlin', recurrenceRule: 'FREQ=WEEKLY;COUNT=3',
    });
    expect(res.status).toBe(201);
  });

  it('a weekly event lasting centuries is answered, not a 500 (its occurrences overlapping the next year are many)', async () => {
    const res = await c.call('POST', '/events', {
      title: 'Long', startsAt: '0363-05-11T06:46:51Z', endsAt: '2026-11-23T12:47:13Z', timeZone: 'Africa/Malabo',
      recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO,WE', allowOverlap: true,
    });
    expect(res.status).toBe(201);
  });
});
