/**
 * The URL layout under /dav/ (addendum): principal `/dav/principals/{username}/`, calendar home
 * `/dav/calendars/{username}/`, a collection per calendar `…/{calendarId}/`, an object per UID `…/{uid}.ics`.
 */
export const DAV_ROOT = '/dav/';

export type DavTarget =
  | { kind: 'root' }
  | { kind: 'principals' }
  | { kind: 'principal'; user: string }
  | { kind: 'home'; user: string }
  | { kind: 'collection'; user: string; segment: string }
  | { kind: 'object'; user: string; segment: string; uid: string }
  /** Below a collection's child: its parent does not exist (MKCOL and PUT there are 409, RFC 4918 9.3.1). */
  | { kind: 'nested' }
  | { kind: 'unknown' };

const seg = (s: string) => encodeURIComponent(s);

export const principalHref = (username: string) => `${DAV_ROOT}principals/${seg(username)}/`;
export const homeHref = (username: string) => `${DAV_ROOT}calendars/${seg(username)}/`;
export const collectionHref = (username: string, segment: string) => `${homeHref(username)}${seg(segment)}/`;
/** An object's name is its UID and `.ics`: the UID is recovered from the name, so no table maps one to the other. */
export const objectHref = (username: string, segment: string, uid: string) => `${collectionHref(username, segment)}${seg(uid)}.ics`;

function decoded(parts: string[]): string[] | null {
  try {
    return parts.map((p) => decodeURIComponent(p));
  } catch {
    return null;
  }
}

/** What a path below /dav/ names (`path` is what follows `/dav`). */
export function targetOf(path: string): DavTarget {
  const parts = decoded(path.split('/').filter((p) => p !== ''));
  if (!parts) return { kind: 'unknown' };
  const [area, user, segment, name, ...rest] = parts;
  if (rest.length) return area === 'calendars' ? { kind: 'nested' } : { kind: 'unknown' };
  if (area === undefined) return { kind: 'root' };
  if (area === 'principals') return user === undefined ? { kind: 'principals' } : segment === undefined ? { kind: 'principal', user } : { kind: 'unknown' };
  if (area !== 'calendars' || user === undefined) return { kind: 'unknown' };
  if (segment === undefined) return { kind: 'home', user };
  if (name === undefined) return { kind: 'collection', user, segment };
  if (!name.endsWith('.ics') || name.length <= 4) return { kind: 'unknown' };
  return { kind: 'object', user, segment, uid: name.slice(0, -4) };
}
