/**
 * The mail port: a message is composed once into RFC 5322 bytes (nodemailer's composer), then handed to a sender.
 * With SMTP_URL set the sender is nodemailer's SMTP transport; without it nothing leaves the service and the mail
 * log's record of the message (state `outbox`) is where operators and tests read it (GET /admin/mail).
 */
import nodemailer from 'nodemailer';

/** A message to one person; an invitation (iCalendar) goes with it when it has one. */
export interface MailContent {
  to: { name: string; address: string };
  subject: string;
  text: string;
  ics?: { method: 'REQUEST' | 'CANCEL'; content: string };
}

export interface ComposedMail {
  messageId: string;
  from: string;
  to: string;
  raw: Buffer;
}

export interface MailSender {
  /** `smtp` sends; `outbox` keeps the message in the mail log only. */
  readonly mode: 'smtp' | 'outbox';
  send(mail: ComposedMail): Promise<void>;
  close(): void;
}

const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });

/** The message's bytes, with a Message-ID derived from `id` (the same message composed twice is recognisably one). */
export async function composeMail(id: string, from: string, mail: MailContent): Promise<ComposedMail> {
  const messageId = `<${id}@calendar-service>`;
  // Both parts say what they are (RFC 6047): the alternative for mail apps that show invitations, the attachment
  // for the rest. nodemailer's icalEvent would type the attachment application/ics.
  const calendar = mail.ics && `text/calendar; charset=utf-8; method=${mail.ics.method}`;
  const info = await composer.sendMail({
    from, to: mail.to, subject: mail.subject, text: mail.text, messageId,
    ...(mail.ics && {
      alternatives: [{ contentType: calendar, content: mail.ics.content }],
      attachments: [{ filename: 'invite.ics', contentType: calendar, content: mail.ics.content }],
    }),
  });
  return { messageId, from, to: mail.to.address, raw: info.message as Buffer };
}

export function smtpSender(url: string): MailSender {
  const transport = nodemailer.createTransport(url);
  return {
    mode: 'smtp',
    async send(mail) {
      await transport.sendMail({ envelope: { from: addressOf(mail.from), to: mail.to }, raw: mail.raw });
    },
    close: () => transport.close(),
  };
}

export const outboxSender = (): MailSender => ({ mode: 'outbox', send: async () => undefined, close: () => undefined });

/** `Calendar <no-reply@example.com>` -> `no-reply@example.com` (the SMTP envelope takes bare addresses). */
export function addressOf(from: string): string {
  const m = /<([^>]+)>\s*$/.exec(from);
  return m ? m[1] : from.trim();
}
