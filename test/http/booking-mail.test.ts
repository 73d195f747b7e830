/**
 * The guest is told: booking, moving and cancelling each make one message with an iCalendar attachment (METHOD,
 * one UID, SEQUENCE increasing, DTSTART), sent through a real SMTP server (smtp-server on 127.0.0.1) when SMTP_URL
 * is set and kept in the outbox (GET /admin/mail) otherwise; redelivered events send nothing twice.
 */
import { SMTPServer } from 'smtp-server';
import { bookingMailer, mailIdFor } from '../../services/mail/mail-consumer';
import { MailLog } from '../../services/mail/mail-log';
import type { MailSender } from '../../services/mail/mail.port';
import { asGuest, booked, hostWithType, slotsOf } from '../support/bookings';
import { icalValue, icsAttachment, parseMime } from '../support/mime';
import { DELIVERY_WAIT_MS, until } from '../support/receiver';
import { request, startTestService, type TestService } from '../support/service';

jest.setTimeout(90_000);

const ADMIN_TOKEN = 'admin-token-for-mail-tests';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

async function startSmtp(): Promise<{ server: SMTPServer; port: number; received: Received[] }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, done) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.server.address() as { port: number }).port, received };
}

/** Books, moves (as the guest) and cancels (as the host) one booking; returns its id and the three starts. */
async function bookMoveCancel(svc: TestService) {
  const host = await hostWithType(svc.base, { name: 'Intro call', location: 'Room 4, second floor' }, { name: 'Mia Weber' });
  const slots = await slotsOf(svc.base, host, '?days=2');
  const { booking, token } = await booked(svc.base, host, slots[0].startsAt, { guest: { name: 'Ana Costa', email: 'ana@example.com' }, timeZone: 'Europe/Lisbon' });
  const moved = await request(svc.base, 'POST', `/public/bookings/${booking.id}/reschedule`, { startsAt: slots[4].startsAt }, asGuest(token));
  expect(moved.status).toBe(200);
  expect((await host.client.call('POST', `/bookings/${booking.id}/cancel`)).status).toBe(200);
  return { id: booking.id as string, token, starts: [slots[0].startsAt, slots[4].startsAt, slots[4].startsAt] };
}

const compact = (iso: string) => new Date(iso).toISOString().replace(/[-:]/g, '').replace('.000', '');

/** The three messages of bookMoveCancel, in order: REQUEST 0, REQUEST 1, CANCEL 2, one UID, the right DTSTART. */
function expectInvitations(raws: string[], bookingId: string, starts: string[]) {
  expect(raws).toHaveLength(3);
  const ics = raws.map(icsAttachment);
  expect(ics.map((c) => icalValue(c, 'METHOD'))).toEqual(['REQUEST', 'REQUEST', 'CANCEL']);
  expect(ics.map((c) => icalValue(c, 'SEQUENCE'))).toEqual(['0', '1', '2']);
  expect(new Set(ics.map((c) => icalValue(c, 'UID')))).toEqual(new Set([`${bookingId}@bookings.calendar-service`]));
  expect(ics.map((c) => icalValue(c, 'DTSTART'))).toEqual(starts.map(compact));
  expect(ics.map((c) => icalValue(c, 'STATUS'))).toEqual(['CONFIRMED', 'CONFIRMED', 'CANCELLED']);
  expect(icalValue(ics[0], 'LOCATION')).toBe('Room 4\\, second floor');
  expect(icalValue(ics[0], 'ORGANIZER')).toMatch(/^mailto:.+@example\.com$/);
  expect(icalValue(ics[0], 'ATTENDEE')).toBe('mailto:ana@example.com');
  for (const c of ics) expect(c.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
  const first = parseMime(raws[0]);
  expect(first.headers.get('to')).toContain('ana@example.com');
  expect(first.headers.get('subject')).toMatch(/^Confirmed: Intro call with Mia Weber/);
}

describe('through SMTP (SMTP_URL set)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let svc: TestService;
  beforeAll(async () => {
    smtp = await startSmtp();
    svc = await startTestService({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Bookings <bookings@calendar.example>', PUBLIC_URL: 'https://cal.example.com' });
  });
  afterAll(async () => {
    await svc?.stop();
    await new Promise<void>((resolve) => smtp.server.close(() => resolve()));
  });

  const toAna = (bookingId: string) => smtp.received.filter((m) => m.to.includes('ana@example.com') && m.raw.includes(bookingId));
  /**
   * The booking's three mail records once none is `sending`: the log records an SMTP server's answer a moment after
   * the server holds the message (a round trip to the read store, longer on MongoDB-wire).
   */
  const mailLogged = async (bookingId: string) => {
    const records = async () =>
      (await new MailLog(svc.service.context.store).recent()).filter((r) => r.bookingId === bookingId).sort((a, b) => a.sequence - b.sequence);
    await until(async () => (await records()).filter((r) => r.state !== 'sending').length >= 3, DELIVERY_WAIT_MS, 'three answers in the mail log');
    return records();
  };

  it('sends REQUEST, REQUEST, CANCEL with one UID and increasing SEQUENCE, from MAIL_FROM, with working links', async () => {
    const { id, token, starts } = await bookMoveCancel(svc);
    await until(() => toAna(id).length >= 3, DELIVERY_WAIT_MS, 'three messages');
    const got = toAna(id);
    expect(got.every((m) => m.from === 'bookings@calendar.example')).toBe(true);
    expectInvitations(got.map((m) => m.raw), id, starts);
    const text = parseMime(got[0].raw);
    const plain = text.parts.flatMap((p) => (p.parts.length ? p.parts : [p])).find((p) => /^text\/plain/.test(p.headers.get('content-type') ?? ''))!;
    expect(plain.body).toContain(`https://cal.example.com/booking/${id}/cancel#token=${token}`);

    const records = await mailLogged(id);
    expect(records.map((r) => [r.state, r.method, r.sequence, r.attempts])).toEqual([['sent', 'REQUEST', 0, 1], ['sent', 'REQUEST', 1, 1], ['sent', 'CANCEL', 2, 1]]);
  });

  it('sends nothing twice when the bus delivers an event again (after a crash before its commit)', async () => {
    const { id } = await bookMoveCancel(svc);
    await until(() => toAna(id).length >= 3, DELIVERY_WAIT_MS, 'three messages');
    await mailLogged(id);
    const created = (await svc.service.context.events.readAll(0, 100_000))
      .find((e) => e.type === 'booking.created' && (e.data as { id: string }).id === id)!;
    const sent: string[] = [];
    const recording: MailSender = { mode: 'smtp', send: async (m) => void sent.push(m.messageId), close: () => undefined };
    const handle = bookingMailer(svc.service.context, recording);
    await handle(created);
    await handle(created);
    expect(sent).toEqual([]); // the consumer sent it already

    // A send that failed is retried on redelivery, and once sent never again.
    const log = new MailLog(svc.service.context.store);
    const id0 = mailIdFor(created.id);
    await log.save({ ...(await log.get(id0))!, state: 'failed', error: 'connection reset' });
    await handle(created);
    await handle(created);
    expect(sent).toEqual([`<${id0}@calendar-service>`]);
    expect(await log.get(id0)).toMatchObject({ state: 'sent', attempts: 2, error: null });
    expect(toAna(id)).toHaveLength(3);
  });
});

describe('without SMTP_URL: the outbox', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ ADMIN_TOKEN });
  });
  afterAll(() => svc?.stop());

  const outbox = async (bookingId: string) => {
    const res = await request(`${svc.service.url}`, 'GET', '/admin/mail?state=outbox', undefined, { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect(res.status).toBe(200);
    return (res.body.mail as Array<Record<string, any>>).filter((m) => m.bookingId === bookingId).reverse();
  };

  it('keeps each message with its iCalendar attachment, visible to operators at GET /admin/mail', async () => {
    const { id, starts } = await bookMoveCancel(svc);
    await until(async () => (await outbox(id)).length >= 3, DELIVERY_WAIT_MS, 'three outbox records');
    const records = await outbox(id);
    expect(records.map((r) => [r.state, r.method, r.sequence, r.to, r.sentAt])).toEqual([
      ['outbox', 'REQUEST', 0, 'ana@example.com', null], ['outbox', 'REQUEST', 1, 'ana@example.com', null], ['outbox', 'CANCEL', 2, 'ana@example.com', null],
    ]);
    expectInvitations(records.map((r) => Buffer.from(r.raw, 'base64').toString('utf8')), id, starts);
  });

  it('answers the mail log to the admin token only, and refuses an unknown state', async () => {
    expect((await request(`${svc.service.url}`, 'GET', '/admin/mail')).status).toBe(401);
    const bad = await request(`${svc.service.url}`, 'GET', '/admin/mail?state=lost', undefined, { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_request']);
  });
});
