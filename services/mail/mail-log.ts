/**
 * Every message the service sends (to a guest about a booking, to an owner about a reminder), as state in the read
 * store (`_mail`), under an id derived from the domain event that made it: `outbox` (kept, not sent: no SMTP_URL), `sending`, `sent` or `failed` (retried). A message in `outbox` or
 * `sent` is never sent again, whatever the bus redelivers.
 */
import type { ReadStore } from '../readstore/read-store.port';

export const MAIL_STATES = ['outbox', 'sending', 'sent', 'failed'] as const;
export type MailState = (typeof MAIL_STATES)[number];

export interface MailRecord {
  id: string;
  eventId: string;
  eventType: string;
  /** The booking a guest's message is about; null for a reminder. */
  bookingId: string | null;
  to: string;
  subject: string;
  /** The attached invitation's METHOD and SEQUENCE; null and 0 for a message without one (a reminder). */
  method: 'REQUEST' | 'CANCEL' | null;
  sequence: number;
  messageId: string;
  state: MailState;
  attempts: number;
  error: string | null;
  createdAt: string;
  sentAt: string | null;
  /** The whole message (RFC 5322, base64 of its bytes). */
  raw: string;
}

type MailDoc = MailRecord & { _id: string; _sortKey: string; [field: string]: unknown };

export const MAIL_LOG = '_mail';
export const MAIL_LIST_LIMIT = 100;

export class MailLog {
  private readonly mail;
  private indexed: Promise<void> | null = null;

  constructor(store: ReadStore) {
    this.mail = store.collection<MailDoc>(MAIL_LOG);
  }

  private ensureIndexes(): Promise<void> {
    return (this.indexed ??= Promise.all([this.mail.ensureIndex(['_sortKey']), this.mail.ensureIndex(['state', '_sortKey'])]).then(() => undefined));
  }

  async get(id: string): Promise<MailRecord | null> {
    const doc = await this.mail.get(id);
    return doc ? view(doc) : null;
  }

  async save(record: MailRecord): Promise<void> {
    await this.ensureIndexes();
    await this.mail.put({ ...record, _id: record.id, _sortKey: `${record.createdAt}|${record.id}` });
  }

  /** Newest first; `state` narrows to one state. */
  async recent(state?: MailState, limit = MAIL_LIST_LIMIT): Promise<MailRecord[]> {
    await this.ensureIndexes();
    const docs = await this.mail.find(state ? { state } : {}, { sort: [['_sortKey', -1]], limit: Math.min(limit, MAIL_LIST_LIMIT) });
    return docs.map(view);
  }
}

const view = ({ _id: _ignored, _sortKey: _key, ...record }: MailDoc): MailRecord => record as MailRecord;
