/**
 * Tells guests about their bookings: a consumer group on the relayed domain events (part of the dispatcher role),
 * never a callback after a commit. Each booking.* event makes one message whose id derives from the event id; the
 * mail log says whether it went out already, so redelivery sends nothing twice. A failed send is recorded and
 * thrown: the bus retries the event with backoff (messages keep their order).
 */
import type { AppContext } from '../app-context';
import type { Bus, BusConsumer } from '../bus/bus.port';
import type { RecordedEvent } from '../eventstore/event-store.port';
import { deterministicUuid } from '../ids';
import { consumeDomainEvents, joinInBackground } from '../relay/event-consumer';
import { userById } from '../../read-api/profile/users.queries';
import { manageTokenFor } from '../rules/manage-token';
import { BOOKING_MAIL_TYPES, bookingMail, bookingOfEvent } from './booking-mail';
import { MailLog, type MailRecord } from './mail-log';
import { composeMail, type MailSender } from './mail.port';

export const mailIdFor = (eventId: string) => deterministicUuid('mail', eventId);

/** Handles one booking.* event (at least once: the bus redelivers, the mail log dedupes). */
export function bookingMailer(app: AppContext, sender: MailSender): (event: RecordedEvent) => Promise<void> {
  const log = app.log.child({ role: 'dispatcher', consumer: 'mail' });
  const mailLog = new MailLog(app.store);
  const base = app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`;

  const linksFor = (bookingId: string) => {
    const token = encodeURIComponent(manageTokenFor(app.serverKeys.current, bookingId));
    return {
      reschedule: `${base}/booking/${bookingId}/reschedule#token=${token}`,
      cancel: `${base}/booking/${bookingId}/cancel#token=${token}`,
    };
  };

  return async (event) => {
    const id = mailIdFor(event.id);
    const existing = await mailLog.get(id);
    if (existing && (existing.state === 'sent' || existing.state === 'outbox')) return;
    const found = bookingOfEvent(event);
    const host = found && (await userById(app.readModels, found.booking.hostId));
    if (!found || !host) return void log.warn({ eventId: event.id, type: event.type }, 'no mail: the booking or its host is unknown');
    const mail = bookingMail(event, { host: { name: host.name, email: host.email }, links: linksFor(found.booking.id) })!;
    const composed = await composeMail(id, app.config.MAIL_FROM, mail);
    const record: MailRecord = {
      id, eventId: event.id, eventType: event.type, bookingId: mail.bookingId, to: composed.to, subject: mail.subject,
      method: mail.ics.method, sequence: mail.sequence, messageId: composed.messageId, state: 'outbox',
      attempts: existing?.attempts ?? 0, error: null, createdAt: existing?.createdAt ?? new Date().toISOString(), sentAt: null,
      raw: composed.raw.toString('base64'),
    };
    if (sender.mode === 'outbox') return mailLog.save(record);
    const attempt = { ...record, attempts: record.attempts + 1 };
    await mailLog.save({ ...attempt, state: 'sending' });
    try {
      await sender.send(composed);
    } catch (err) {
      await mailLog.save({ ...attempt, state: 'failed', error: err instanceof Error ? err.message : String(err) });
      throw err;
    }
    await mailLog.save({ ...attempt, state: 'sent', sentAt: new Date().toISOString() });
  };
}

export function startMailConsumer(app: AppContext, bus: Bus, sender: MailSender): BusConsumer {
  const handle = bookingMailer(app, sender);
  return joinInBackground(
    () => consumeDomainEvents(bus, app.store, app.config.KAFKA_TOPIC, `mail.${app.config.KAFKA_TOPIC}`, app.codec, handle, new Set(BOOKING_MAIL_TYPES)),
    (err, delay) => app.log.warn({ err, delay }, 'the mail consumer could not join its consumer group; retrying'),
  );
}
