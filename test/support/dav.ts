/** A CalDAV caller for the tests and the bench: HTTP Basic with an app password (an API key) made through the API. */
import type { Client } from './service';

export interface DavResponse {
  status: number;
  headers: Headers;
  text: string;
}

export interface DavClient {
  username: string;
  key: string;
  /** `path` below the service's origin, e.g. `/dav/calendars/ada/`. */
  call(method: string, path: string, body?: string, headers?: Record<string, string>): Promise<DavResponse>;
}

export const ALL_EVENT_SCOPES = ['events:read', 'events:create', 'events:update', 'events:delete', 'calendars:write'];

export const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export async function davCall(origin: string, method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<DavResponse> {
  const res = await fetch(`${origin}${path}`, { method, headers, body, redirect: 'manual' });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The API origin of a test service (`base` is `{origin}/api/v1`). */
export const originOf = (base: string) => base.replace(/\/api\/v1$/, '');

/** An app password for `c` with these scopes, and a DAV caller using it under `c`'s username (or `login`). */
export async function davClientOf(base: string, c: Client, scopes = ALL_EVENT_SCOPES, login?: string): Promise<DavClient> {
  const me = await c.call('GET', '/me');
  const made = await c.call('POST', '/api-keys', { name: 'CalDAV', scopes });
  if (made.status !== 201) throw new Error(`api key: ${made.status} ${JSON.stringify(made.body)}`);
  const username = me.body.user?.username ?? me.body.username;
  const key = made.body.key as string;
  const auth = basic(login ?? username, key);
  const origin = originOf(base);
  return {
    username, key,
    call: (method, path, body, headers = {}) => davCall(origin, method, path, body, {
      authorization: auth, ...(body ? { 'content-type': method === 'PUT' ? 'text/calendar; charset=utf-8' : 'application/xml; charset=utf-8' } : {}), ...headers,
    }),
  };
}

/** One VEVENT object text; `extra` lines go inside the VEVENT, `more` after it (overrides). */
export function vcalendar(uid: string, lines: string[], more: string[] = []): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//tests//EN', 'BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT', ...more, 'END:VCALENDAR', ''].join('\r\n');
}
