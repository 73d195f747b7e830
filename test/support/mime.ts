/**
 * Just enough MIME (RFC 2045/2046) to read the messages the service sends: headers, nested multiparts, base64 and
 * quoted-printable bodies; and RFC 5545 content lines (unfolded) of an iCalendar attachment.
 */
export interface MimePart {
  headers: Map<string, string>;
  /** The decoded body of a leaf part. */
  body: string;
  parts: MimePart[];
}

function splitHead(raw: string): { head: string; body: string } {
  const at = raw.indexOf('\r\n\r\n');
  return at < 0 ? { head: raw, body: '' } : { head: raw.slice(0, at), body: raw.slice(at + 4) };
}

function headersOf(head: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) out.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return out;
}

const param = (header: string | undefined, name: string) => new RegExp(`${name}="?([^";]+)"?`, 'i').exec(header ?? '')?.[1];

function decode(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '7bit').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return Buffer.from(body.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1').toString('utf8');
    default:
      return body;
  }
}

export function parseMime(raw: string): MimePart {
  const { head, body } = splitHead(raw);
  const headers = headersOf(head);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = type.toLowerCase().startsWith('multipart/') ? param(type, 'boundary') : undefined;
  if (!boundary) return { headers, body: decode(body, headers.get('content-transfer-encoding')), parts: [] };
  const chunks = body.split(`--${boundary}`).slice(1);
  const parts = chunks.filter((c) => !c.startsWith('--')).map((c) => parseMime(c.replace(/^\r\n/, '').replace(/\r\n$/, '')));
  return { headers, body: '', parts };
}

/** Every leaf part, depth first. */
export function leaves(part: MimePart): MimePart[] {
  return part.parts.length ? part.parts.flatMap(leaves) : [part];
}

/** The iCalendar attachment (`application/ics`, a `.ics` file) of a message. */
export function icsAttachment(raw: string): string {
  const found = leaves(parseMime(raw)).find((p) => /^application\/ics/i.test(p.headers.get('content-type') ?? ''));
  if (!found) throw new Error('the message has no application/ics attachment');
  return found.body;
}

/** Unfolded content lines of an iCalendar text, as [name (without parameters), value] pairs. */
export function icalLines(ics: string): Array<[string, string]> {
  return ics.replace(/\r\n[ \t]/g, '').split('\r\n').filter(Boolean).map((line) => {
    const colon = line.indexOf(':');
    return [line.slice(0, colon).split(';')[0], line.slice(colon + 1)];
  });
}

/** The value of the first content line called `name`. */
export const icalValue = (ics: string, name: string) => icalLines(ics).find(([n]) => n === name)?.[1];
