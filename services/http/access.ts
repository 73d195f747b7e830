/**
 * Who may call what: every route of the API, by method and OpenAPI path. One table, so it can be read at a glance
 * and walked by a test. `scope` routes accept a session (which carries every scope) or a token with that scope.
 */
export type AccessRule =
  | { kind: 'public' }
  | { kind: 'authenticated' }
  | { kind: 'session' }
  | { kind: 'scope'; scope: string };

const open = (): AccessRule => ({ kind: 'public' });
const anyCredential = (): AccessRule => ({ kind: 'authenticated' });
const session = (): AccessRule => ({ kind: 'session' });
const scope = (s: string): AccessRule => ({ kind: 'scope', scope: s });

export const access: Record<string, AccessRule> = {
  'POST /auth/signup': open(),
  'POST /auth/login': open(),
  'POST /auth/logout': anyCredential(),

  'GET /me': session(),
  'PATCH /me': session(),
  'GET /me/bootstrap': scope('spaces:read'),
  'GET /sync': scope('sync:read'),

  'GET /spaces': session(),
  'POST /spaces': session(),
  'GET /calendars': scope('calendars:read'),
  'POST /calendars': scope('calendars:write'),

  'GET /events': scope('events:read'),
  'POST /events': scope('events:create'),
  'GET /events/{id}': scope('events:read'),
  'PATCH /events/{id}': scope('events:update'),
  'DELETE /events/{id}': scope('events:delete'),
  'POST /events/{id}/rsvp': scope('events:write'),
  'GET /inbox': scope('events:read'),
  'GET /inbox/count': scope('events:read'),
};

/** Every scope of api-spec.md section 5. */
export const SCOPES = [
  'events:read', 'events:create', 'events:update', 'events:delete', 'events:write',
  'calendars:read', 'calendars:write', 'availability:read',
  'tasks:read', 'tasks:write', 'projects:read', 'projects:write',
  'spaces:read', 'organizations:read', 'routines:read', 'routines:write',
  'bookings:read', 'bookings:write', 'notifications:read', 'notifications:write',
  'devices:write', 'sync:read', 'automations:read', 'automations:write',
] as const;
