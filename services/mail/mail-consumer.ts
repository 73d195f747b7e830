/**
 * Mail made from the log: a consumer group on the relayed domain events (part of the dispatcher role), never a
 * callback after a commit. Each booking.* event makes one message to the guest, each reminder.fired event of an
 * `email` reminder one message to the event's owner; a message's id derives from the event id, and the mail log says
 * whether it went out already, so redelivery sends nothing twice. A failed send is recorded and thrown: the bus
 * retries the event with backoff (messages keep their order).
 */
import { ReminderDue } from '../../contracts/reminders';
import type { AppContext } from '../app-context';
import type { Bus, BusConsumer } from '../bus/bus.port';
import type { RecordedEvent } from '../eventstore/event-store.port';
import { deterministicUuid } from '../ids';
import { consumeDomainEvents, joinInBackground } from '../relay/event-consumer';
import { userById } from '../../read-api/profile/users.queries';
import { manageTokenFor } from '../rules/manage-token';
import { BOOKING_MAIL_TYPES, bookingMail, bookingOfEvent } from './booking-mail';
import { MailLog, type MailRecord } from './mail-log';
import { composeMail, type MailContent, type MailSender } from './mail.port';
import { reminderMail } from './reminder-mail';

export const mailIdFor = (eventId: string) => deterministicUuid('mail', eventId);

const MAIL_TYPES = [...BOOKING_MAIL_TYPES, 'reminder.fired'] as const;

/** Composes and sends (or keeps in the outbox) the one message of `event`, unless it went out already. */
function recordedSender(app: AppContext, sender: MailSender) {
  const mailLog = new MailLog(app.store);
  return async (event: RecordedEvent, mail: () => Promise<(MailContent & Pick<MailRecord, 'bookingId' | 'sequence'>) | null>) => {
    const id = mailIdFor(event.id);
    const existing = await mailLog.get(id);
    if (existing && (existing.state === 'sent' || existing.state === 'outbox')) return;
    const content = await mail();
    if (!content) return;
    const composed = await composeMail(id, app.config.MAIL_FROM, content);
    const record: MailRecord = {
      id, eventId: event.id, eventType: event.type, bookingId: content.bookingId, to: composed.to, subject: content.subject,
      method: content.ics?.method ?? null, sequence: content.sequence, messageId: composed.messageId, state: 'outbox',
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

/**
 * Handles one booking.* or reminder.fired event (at least once: the bus redelivers, the mail log dedupes). Resolves
 * false for a reminder that mails nothing (another method), so the consumer keeps no memo of it.
 */
export function eventMailer(app: AppContext, sender: MailSender): (event: RecordedEvent) => Promise<boolean | void> {
  const log = app.log.child({ role: 'dispatcher', consumer: 'mail' });
  const send = recordedSender(app, sender);
  const base = app.config.PUBLIC_URL ?? `http://localhost:${app.config.PORT}`;

  const linksFor = (bookingId: string) => {
    const token = encodeURIComponent(manageTokenFor(app.serverKeys.current, bookingId));
    return {
      reschedule: `${base}/booking/${bookingId}/reschedule#token=${token}`,
      cancel: `${base}/booking/${bookingId}/cancel#token=${token}`,
    };
  };

  const booking = (event: RecordedEvent) => send(event, async () => {
    const found = bookingOfEvent(event);
    const host = found && (await userById(app.readModels, found.booking.hostId));
    if (!found || !host) {
      log.warn({ eventId: event.id, type: event.type }, 'no mail: the booking or its host is unknown');
      return null;
    }
    return bookingMail(event, { host: { name: host.name, email: host.email }, links: linksFor(found.booking.id) });
  });

  const reminder = (event: RecordedEvent) => {
    const parsed = ReminderDue.safeParse(event.data);
    if (!parsed.success || parsed.data.method !== 'email') return Promise.resolve(false);
    return send(event, async () => {
      const owner = await userById(app.readModels, parsed.data.ownerId);
      if (!owner) {
        log.warn({ eventId: event.id }, 'no mail: the reminder\'s owner is unknown');
        return null;
      }
      return { ...reminderMail(parsed.data, owner), bookingId: null, sequence: 0 };
    });
  };

  return (event) => (event.type === 'reminder.fired' ? reminder(event) : booking(event));
}

export function startMailConsumer(app: AppContext, bus: Bus, sender: MailSender): BusConsumer {
  const handle = eventMailer(app, sender);
  return joinInBackground(
    () => consumeDomainEvents(bus, app.store, app.config.KAFKA_TOPIC, `mail.${app.config.KAFKA_TOPIC}`, app.codec, handle, new Set(MAIL_TYPES)),
    (err, delay) => app.log.warn({ err, delay }, 'the mail consumer could not join its consumer group; retrying'),
  );
}
