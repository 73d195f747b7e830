/**
 * How the embedded event store keeps an event's envelope compactly and gives it back exactly: ids in canonical UUID
 * form as 16 bytes (any other string as it is), an instant that its own toISOString() gives back as epoch
 * milliseconds (any other string as it is), the known metadata fields in columns of their own, and whatever else the
 * metadata holds (a null userId, fields added later) as JSON beside them.
 */
import type { EventMetadata } from './event-store.port';

/** As bound: integers as bigint, so SQLite keeps them as integers of a few bytes; read back as numbers. */
export type Stored = Buffer | string | number | bigint | null;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function encodeId(id: string): Buffer | string {
  return UUID.test(id) ? Buffer.from(id.replace(/-/g, ''), 'hex') : id;
}

/**
 * An id as SQLite's quote() gives it: X'<32 hex digits>' for one kept as 16 bytes, '<text>' for one kept as text,
 * NULL for none. Reading ids this way costs SQLite a fraction of building the text form in SQL, and no Buffer here.
 */
export function unquoteId(quoted: string): string | null {
  if (quoted.charCodeAt(0) === 88 /* X */) {
    const hex = quoted.slice(2, 34).toLowerCase();
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
  return quoted === 'NULL' ? null : quoted.slice(1, -1).replaceAll("''", "'");
}

function encodeInstant(iso: string): bigint | string {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) && new Date(ms).toISOString() === iso ? BigInt(ms) : iso;
}

const decodeInstant = (stored: number | string) => (typeof stored === 'number' ? new Date(stored).toISOString() : stored);

/** The metadata fields with a column, in envelope order, and how each is kept. */
const COLUMNS = {
  userId: 'id',
  spaceId: 'id',
  correlationId: 'id',
  causationId: 'id',
  occurredAt: 'instant',
  schemaVersion: 'int',
} as const;
type Field = keyof typeof COLUMNS;
const FIELDS = Object.keys(COLUMNS) as Field[];

export interface StoredMetadata {
  columns: Stored[];
  /** JSON of what has no column (or does not fit its column); null when there is none. */
  extra: string | null;
}

function fits(kind: (typeof COLUMNS)[Field], v: unknown): boolean {
  return kind === 'int' ? Number.isSafeInteger(v) : typeof v === 'string';
}

function encodeValue(kind: (typeof COLUMNS)[Field], v: unknown): Stored {
  if (kind === 'id') return encodeId(v as string);
  if (kind === 'instant') return encodeInstant(v as string);
  return BigInt(v as number);
}

export function encodeMetadata(metadata: EventMetadata): StoredMetadata {
  const source = metadata as unknown as Record<string, unknown>;
  const extra: Record<string, unknown> = {};
  const columns = FIELDS.map((field): Stored => {
    const v = source[field];
    if (v === undefined) return null;
    if (fits(COLUMNS[field], v)) return encodeValue(COLUMNS[field], v);
    extra[field] = v;
    return null;
  });
  for (const [key, v] of Object.entries(source)) if (!(key in COLUMNS) && v !== undefined) extra[key] = v;
  return { columns, extra: Object.keys(extra).length ? JSON.stringify(extra) : null };
}

/** `columns` as read, ids already made text by unquoteId. */
export function decodeMetadata(columns: Stored[], extra: string | null): EventMetadata {
  const more = extra ? (JSON.parse(extra) as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  FIELDS.forEach((field, i) => {
    const stored = columns[i];
    if (stored !== null) {
      const kind = COLUMNS[field];
      out[field] = kind === 'instant' ? decodeInstant(stored as number | string) : stored; // ids come unquoted (unquoteId)
    } else if (field in more) {
      out[field] = more[field];
    }
  });
  for (const [key, v] of Object.entries(more)) if (!(key in COLUMNS)) out[key] = v;
  return out as unknown as EventMetadata;
}

/** Column names of the metadata fields, in the order of `columns`. */
export const METADATA_COLUMNS = ['user_id', 'space_id', 'correlation_id', 'causation_id', 'occurred_at', 'schema_version'];
