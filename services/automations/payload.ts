/**
 * The payload an automation sees of a trigger event: the body a webhook of the type delivers (`{id, type,
 * createdAt, data, previous?}`), read through dotted paths for filters and `{{path}}` placeholders.
 */

/** The value at a dotted path (`data.attendees.0.email`); own properties only, so no path reaches a prototype. */
export function valueAt(payload: unknown, path: string): unknown {
  let current: unknown = payload;
  for (const segment of path.split('.')) {
    if (Array.isArray(current) && /^\d+$/.test(segment)) current = current[Number(segment)];
    else if (current !== null && typeof current === 'object' && !Array.isArray(current) && Object.hasOwn(current, segment)) {
      current = (current as Record<string, unknown>)[segment];
    } else return undefined;
  }
  return current;
}

/** Every filter holds: the value at its path equals the required one (null also matches a missing value). */
export function matchesFilters(payload: unknown, filters: Record<string, unknown>): boolean {
  return Object.entries(filters).every(([path, wanted]) => {
    const found = valueAt(payload, path);
    return wanted === null ? found === null || found === undefined : found === wanted;
  });
}

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+(?:\.[A-Za-z0-9_]+)*)\s*\}\}/g;

/** Fills `{{path}}` with the scalar at that path (nothing for a missing value or an object), then trims to `max`. */
export function fillPlaceholders(template: string, payload: unknown, max: number): string {
  const filled = template.replace(PLACEHOLDER, (_, path: string) => {
    const value = valueAt(payload, path);
    return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? String(value) : '';
  });
  const text = filled.trim();
  if (text.length <= max) return text;
  const cut = /[\uD800-\uDBFF]/.test(text[max - 1]) ? max - 1 : max; // never half a surrogate pair
  return text.slice(0, cut).trim();
}
