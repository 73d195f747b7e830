/** Splits a request into words, numbers, clock times and punctuation; titles are rebuilt from the raw spelling. */
export type Token =
  | { kind: 'word'; text: string; raw: string }
  | { kind: 'number'; text: string; raw: string; value: number }
  | { kind: 'clock'; text: string; raw: string; hour: number; minute: number }
  | { kind: 'punct'; text: string; raw: string };

const PIECES = /(\d{1,2}[:.h]\d{2})(?!\d)|(\d+(?:\.\d+)?)|(\p{L}[\p{L}\d]*(?:'\p{L}+)*(?:-[\p{L}\d]+)*)|([^\s\p{L}\d])/gu;

/** "a.m." and "p.m." as one word; curly apostrophes as straight ones. */
const normalize = (text: string) => text.replace(/[’‘]/g, "'").replace(/(?<!\p{L})([ap])\.\s?m\b\.?/giu, '$1m');

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of normalize(text).matchAll(PIECES)) {
    const raw = m[0];
    const lower = raw.toLowerCase();
    if (m[1]) {
      const [hour, minute] = lower.split(/[:.h]/).map(Number);
      if (hour <= 24 && minute < 60) out.push({ kind: 'clock', text: lower, raw, hour, minute });
      else out.push({ kind: 'number', text: lower, raw, value: Number(lower.replace(/[:h]/, '.')) });
    } else if (m[2]) out.push({ kind: 'number', text: lower, raw, value: Number(lower) });
    else if (m[3]) out.push({ kind: 'word', text: lower, raw });
    else out.push({ kind: 'punct', text: lower, raw });
  }
  return out;
}
