/**
 * The guest is told: booking, moving and cancelling each make one message with an iCalendar invitation (typed
 * text/calendar with its METHOD, one UID, SEQUENCE increasing, DTSTART, the manage links in DESCRIPTION), read back
 * with mailparser and ical.js, sent through a real SMTP server (smtp-server on 127.0.0.1) when SMTP_URL
 * is set and kept in the outbox (GET /admin/mail) otherwise; redelivered events send nothing twice.
 */
import type ICAL from 'ical.js';
import { SMTPServer } from 'smtp-server';
import { eventMailer, mailIdFor } from '../../services/mail/mail-consumer';
import { MailLog } from '../../services/mail/mail-log';
import type { MailSender } from '../../services/mail/mail.port';
import { asGuest, booked, hostWithType, slotsOf } from '../support/bookings';
import { readMail, veventOf } from '../support/received-mail';
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
  const { booking, token } = await booked(svc.base, host, slots[0].startsAt, {
    guest: { name: 'Ana Costa', email: 'ana@example.com' }, timeZone: 'Europe/Lisbon', note: 'About the spring workshop',
  });
  const moved = await request(svc.base, 'POST', `/public/bookings/${booking.id}/reschedule`, { startsAt: slots[4].startsAt }, asGuest(token));
  expect(moved.status).toBe(200);
  expect((await host.client.call('POST', `/bookings/${booking.id}/cancel`)).status).toBe(200);
  return { id: booking.id as string, token, starts: [slots[0].startsAt, slots[4].startsAt, slots[4].startsAt] };
}

/**
 * The three messages of bookMoveCancel, in order, as a mail client reads them: each carries its invitation twice (the
 * alternative and the `invite.ics` attachment), both typed `text/calendar; charset=utf-8; method=…` with the
 * VCALENDAR's METHOD; REQUEST 0, REQUEST 1, CANCEL 2, one UID, the right DTSTART; the manage links in DESCRIPTION.
 * Returns the reschedule and cancel links of the first invitation.
 */
async function expectInvitations(raws: string[], bookingId: string, starts: string[]) {
  expect(raws).toHaveLength(3);
  const read = await Promise.all(raws.map((raw) => readMail(raw)));
  const methods = ['REQUEST', 'REQUEST', 'CANCEL'];
  read.forEach(({ calendars }, i) => {
    expect(calendars.map((c) => [c.type, c.params.charset, c.params.method, c.filename, c.disposition])).toEqual([
      ['text/calendar', 'utf-8', methods[i], null, null],
      ['text/calendar', 'utf-8', methods[i], 'invite.ics', 'attachment'],
    ]);
    for (const c of calendars) expect(c.calendar.getFirstPropertyValue('method')).toBe(methods[i]);
    expect(calendars[1].text).toBe(calendars[0].text);
    // Lines are folded at 75 octets (RFC 5545 3.1).
    expect(calendars[1].text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
  });
  const events = read.map(({ calendars }) => veventOf(calendars[1]));
  const value = (name: string) => events.map((e) => e.getFirstPropertyValue(name));
  expect(value('sequence')).toEqual([0, 1, 2]);
  expect(new Set(value('uid'))).toEqual(new Set([`${bookingId}@bookings.calendar-service`]));
  expect(events.map((e) => (e.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString())).toEqual(starts);
  expect(value('status')).toEqual(['CONFIRMED', 'CONFIRMED', 'CANCELLED']);
  expect(value('location')[0]).toBe('Room 4, second floor');
  expect(value('organizer')[0]).toMatch(/^mailto:.+@example\.com$/);
  expect(value('attendee')[0]).toBe('mailto:ana@example.com');

  const descriptions = value('description') as Array<string | null>;
  const link = (kind: string) => new RegExp(`https://cal\\.example\\.com/booking/${bookingId}/${kind}#token=bk_[\\w-]+`);
  for (const d of descriptions.slice(0, 2)) {
    expect(d).toMatch(link('reschedule'));
    expect(d).toMatch(link('cancel'));
  }
  expect(descriptions[0]).toMatch(/^About the spring workshop\n\n/);
  // A cancelled booking can no longer be moved or cancelled: its invitation carries no links.
  expect(descriptions[2] ?? '').not.toMatch(/https:/);

  expect(read[0].mail.to).toMatchObject({ value: [{ address: 'ana@example.com', name: 'Ana Costa' }] });
  expect(read[0].mail.subject).toMatch(/^Confirmed: Intro call with Mia Weber/);
  return { reschedule: link('reschedule').exec(descriptions[0]!)![0], cancel: link('cancel').exec(descriptions[0]!)![0], text: read[0].mail.text ?? '' };
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
    const links = await expectInvitations(got.map((m) => m.raw), id, starts);
    expect(links.text).toContain(links.reschedule);
    expect(links.text).toContain(links.cancel);
    // The invitation's links are the guest's: its page answers, and its token manages this booking.
    const cancelLink = new URL(links.cancel);
    expect(decodeURIComponent(cancelLink.hash.replace('#token=', ''))).toBe(token);
    const page = await fetch(`${svc.service.url}${cancelLink.pathname}`);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
    const seen = await request(svc.base, 'GET', `/public/bookings/${id}/reschedule`, undefined, asGuest(token));
    expect([seen.status, seen.body.booking?.status]).toEqual([200, 'cancelled']);

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
    const handle = eventMailer(svc.service.context, recording);
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
    svc = await startTestService({ ADMIN_TOKEN, PUBLIC_URL: 'https://cal.example.com' });
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
    await expectInvitations(records.map((r) => Buffer.from(r.raw, 'base64').toString('utf8')), id, starts);
  });

  it('answers the mail log to the admin token only, and refuses an unknown state', async () => {
    expect((await request(`${svc.service.url}`, 'GET', '/admin/mail')).status).toBe(401);
    const bad = await request(`${svc.service.url}`, 'GET', '/admin/mail?state=lost', undefined, { authorization: `Bearer ${ADMIN_TOKEN}` });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_request']);
  });
});
