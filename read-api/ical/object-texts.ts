/**
 * The text of each calendar object a feed wrote, by its events' ids and versions: a feed written again after one
 * change writes that one object and takes the others from here. Bounded by bytes, least recently used first out.
 */
import type { ObjectTexts } from '../../services/ical';

export function objectTexts(maxBytes = 64 * 1024 * 1024): ObjectTexts {
  const texts = new Map<string, string>();
  let bytes = 0;
  return (key, write) => {
    const kept = texts.get(key);
    if (kept !== undefined) {
      texts.delete(key);
      texts.set(key, kept); // most recently used goes last
      return kept;
    }
    const text = write();
    texts.set(key, text);
    bytes += text.length + key.length;
    for (const [oldest, value] of texts) {
      if (bytes <= maxBytes) break;
      texts.delete(oldest);
      bytes -= value.length + oldest.length;
    }
    return text;
  };
}
