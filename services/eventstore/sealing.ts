/**
 * Crypto-shredding of personal data in the log. The data of an event is sealed (AES-256-GCM, the event id as
 * associated data) under the key of every user it belongs to:
 *   - its author, `metadata.userId`;
 *   - the user its data names as owner (`createdBy`, else `ownerId`, else `userId`) when that is someone else: an
 *     assignee's status change restates the owner's task, an attendee's answer the organiser's event; and for events
 *     appended without a signed-in author (signup's claims, inbound integrations) the only one.
 * Two owners mean two layers, so erasing either makes the data unreadable. Events with no owner stay in clear, and
 * so does `user.erased`. The envelope names the key's owner (an id, not personal): `{"$sealed": "<userId>.<base64>"}`.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { NewEvent, RecordedEvent } from './event-store.port';
import type { UserKeys } from './user-keys';

export const SEALED = '$sealed';
const NEVER_SEALED = new Set(['user.erased']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const IV_BYTES = 12;
const TAG_BYTES = 16;

export type Sealed = { [SEALED]: string };

export const isSealed = (data: unknown): data is Sealed =>
  typeof data === 'object' && data !== null && typeof (data as Record<string, unknown>)[SEALED] === 'string';

function ownerNamedIn(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  const named = [d.createdBy, d.ownerId, d.userId].find((v) => typeof v === 'string' && UUID.test(v));
  return (named as string | undefined) ?? null;
}

/** The users whose keys seal this event, innermost first. */
export function keyOwners(event: Pick<NewEvent, 'type' | 'data' | 'metadata'>): string[] {
  if (NEVER_SEALED.has(event.type) || event.data === null || event.data === undefined) return [];
  const owners = [ownerNamedIn(event.data), event.metadata.userId].filter((id): id is string => !!id);
  return [...new Set(owners)];
}

/** Random IVs drawn from a pool: one call to the system's generator per 256 events. */
let ivPool = Buffer.alloc(0);
function nextIv(): Buffer {
  if (ivPool.length < IV_BYTES) ivPool = randomBytes(IV_BYTES * 256);
  const iv = ivPool.subarray(0, IV_BYTES);
  ivPool = ivPool.subarray(IV_BYTES);
  return iv;
}

/** `iv | tag | ciphertext` of the JSON text, in base64. */
function encrypt(key: Buffer, eventId: string, json: string): string {
  const iv = nextIv();
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(eventId));
  const body = cipher.update(json, 'utf8');
  cipher.final();
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64');
}

function decrypt(key: Buffer, eventId: string, sealed: Buffer): string {
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(eventId));
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES), undefined, 'utf8') + decipher.final('utf8');
}

export class Sealer {
  constructor(private readonly keys: UserKeys) {}

  async seal(event: NewEvent): Promise<NewEvent> {
    const owners = keyOwners(event);
    if (owners.length === 0) return event;
    let json = JSON.stringify(event.data);
    let data: Sealed | null = null;
    for (const owner of owners) {
      const key = await this.keys.forWriting(owner);
      data = { [SEALED]: `${owner}.${encrypt(key, event.id, json)}` };
      json = JSON.stringify(data);
    }
    return { ...event, data };
  }

  /** The event with its data in clear, or redacted (`data: null`) when a key it was sealed under is gone. */
  async open(event: RecordedEvent): Promise<RecordedEvent> {
    let data = event.data;
    while (isSealed(data)) {
      const key = await this.keys.forReading(sealedFor(data[SEALED]));
      if (!key) return erased(event);
      data = JSON.parse(openLayer(key, event.id, data[SEALED]));
    }
    return data === event.data ? event : { ...event, data };
  }
}

/** The user whose key opens a layer, from its envelope (`<userId>.<base64>`). */
export const sealedFor = (envelope: string): string => envelope.slice(0, envelope.indexOf('.'));

/** The JSON text inside one layer (maybe another layer), from its envelope. */
export function openLayer(key: Buffer, eventId: string, envelope: string): string {
  return decrypt(key, eventId, Buffer.from(envelope.slice(envelope.indexOf('.') + 1), 'base64'));
}

const SEALED_TEXT_START = `{"${SEALED}":"`;

/**
 * The envelope of sealed data given as JSON text, or null when the text is not sealed. The text seal() stores is
 * taken apart without parsing it (base64 and ids hold no quote or backslash); any other spelling is parsed.
 */
export function envelopeOfText(text: string): string | null {
  if (text.startsWith(SEALED_TEXT_START) && text.endsWith('"}')) {
    const envelope = text.slice(SEALED_TEXT_START.length, -2);
    if (!envelope.includes('"') && !envelope.includes('\\')) return envelope;
  }
  if (!text.includes(`"${SEALED}"`)) return null;
  const data: unknown = JSON.parse(text);
  return isSealed(data) ? data[SEALED] : null;
}

/** What reading an event sealed under a destroyed key gives. */
export const erased = (event: RecordedEvent): RecordedEvent => ({ ...event, data: null, redacted: 'erased' });
