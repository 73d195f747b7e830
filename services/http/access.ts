/**
 * Who may call what: every route of the API, by method and OpenAPI path. One table, so it can be read at a glance
 * and walked by a test. `scope` routes accept a session (which carries every scope) or a token with that scope.
 * The HTTP app refuses to start when a row has no route, or a route no row.
 */
export type AccessRule =
  /** `ownPagesOnly`: a form of our own pages that signs in (no credential yet), so its Origin is checked (login CSRF). */
  | { kind: 'public'; ownPagesOnly?: boolean }
  | { kind: 'authenticated' }
  | { kind: 'session' }
  | { kind: 'scope'; scope: string };

const open = (): AccessRule => ({ kind: 'public' });
const openFromOwnPages = (): AccessRule => ({ kind: 'public', ownPagesOnly: true });
const anyCredential = (): AccessRule => ({ kind: 'authenticated' });
const session = (): AccessRule => ({ kind: 'session' });
const scope = (s: string): AccessRule => ({ kind: 'scope', scope: s });

export const access: Record<string, AccessRule> = {
  // Accounts and sessions (addendum)
  'POST /auth/signup': open(),
  'POST /auth/login': open(),
  'POST /auth/logout': anyCredential(),

  // Keys and OAuth apps
  'GET /api-keys': session(),
  'POST /api-keys': session(),
  'DELETE /api-keys/{id}': session(),
  'GET /oauth/applications': session(),
  'POST /oauth/applications': session(),
  'DELETE /oauth/applications/{id}': session(),
  'GET /oauth/authorize': session(),
  'POST /oauth/authorize': session(),
  'POST /oauth/sign-in': openFromOwnPages(),
  'POST /oauth/token': open(),

  // Assistant
  'POST /assistant/actions/{id}': session(),
  'GET /assistant/conversations': session(),
  'DELETE /assistant/conversations': session(),
  'GET /assistant/conversations/{id}': session(),
  'DELETE /assistant/conversations/{id}': session(),
  'POST /assistant/feedback': session(),
  'POST /assistant/messages': session(),
  'GET /assistant/preferences': session(),
  'PATCH /assistant/preferences': session(),
  'GET /assistant/quick-actions': session(),
  'GET /assistant/status': session(),

  // Automations
  'GET /automations': scope('automations:read'),
  'POST /automations': scope('automations:write'),
  'GET /automations/{id}': scope('automations:read'),
  'PATCH /automations/{id}': scope('automations:write'),
  'DELETE /automations/{id}': scope('automations:write'),
  'GET /automations/{id}/runs': scope('automations:read'),

  // Availability
  'GET /availability': session(),
  'GET /available-slots': scope('availability:read'),
  'GET /free-busy': scope('availability:read'),
  // Scheduling with other people (addendum)
  'POST /free-busy': scope('availability:read'),
  'POST /meeting-suggestions': scope('availability:read'),

  // Bookings and meeting types
  'GET /bookings': scope('bookings:read'),
  'POST /bookings/{id}/cancel': scope('bookings:write'),
  'GET /bookings/{id}/reschedule': scope('bookings:read'),
  'POST /bookings/{id}/reschedule': scope('bookings:write'),
  'POST /bookings/{id}/confirm': scope('bookings:write'),
  'POST /bookings/{id}/decline': scope('bookings:write'),
  'GET /meeting-types': scope('bookings:read'),
  'POST /meeting-types': scope('bookings:write'),
  'PATCH /meeting-types': scope('bookings:write'),
  'DELETE /meeting-types': scope('bookings:write'),
  'GET /public/{username}/{slug}': open(),
  'GET /public/{username}/{slug}/slots': open(),
  'POST /public/{username}/{slug}/bookings': open(),
  'GET /public/bookings/{id}/reschedule': open(),
  'POST /public/bookings/{id}/cancel': open(),
  'POST /public/bookings/{id}/reschedule': open(),

  // Events, calendars, types, inbox
  'GET /events': scope('events:read'),
  'POST /events': scope('events:create'),
  'GET /events/{id}': scope('events:read'),
  'PATCH /events/{id}': scope('events:update'),
  'DELETE /events/{id}': scope('events:delete'),
  'POST /events/{id}/rsvp': scope('events:write'),
  // Per-occurrence editing is app-only (api-spec.md, PATCH /events/{id}).
  'PATCH /events/{id}/occurrences/{occurrenceStartsAt}': session(),
  'DELETE /events/{id}/occurrences/{occurrenceStartsAt}': session(),
  'POST /events/{id}/split': session(),
  'GET /calendars': scope('calendars:read'),
  'POST /calendars': scope('calendars:write'),
  // Sharing (addendum, "Sharing calendars"): the owner's, from the apps only.
  'GET /calendars/{id}/members': session(),
  'POST /calendars/{id}/members': session(),
  'DELETE /calendars/{id}/members/{userId}': session(),
  // iCalendar (addendum): the feed address, importing a file, and the feed itself (its token is the credential)
  'POST /calendars/{id}/feed': scope('calendars:write'),
  'DELETE /calendars/{id}/feed': scope('calendars:write'),
  'POST /calendars/{id}/import': scope('events:create'),
  'GET /ical/{token}.ics': open(),
  // Subscriptions to calendars elsewhere (addendum, same section): a read-only calendar fetched from its source
  'POST /calendars/subscriptions': scope('calendars:write'),
  'POST /calendars/{id}/refresh': scope('calendars:write'),
  'DELETE /calendars/{id}': scope('calendars:write'),
  'GET /event-types': session(),
  'POST /event-types': session(),
  'PATCH /event-types/{id}': session(),
  'DELETE /event-types/{id}': session(),
  'GET /inbox': scope('events:read'),
  'GET /inbox/count': scope('events:read'),

  // Devices and notifications
  'GET /devices': scope('devices:write'),
  'POST /devices': scope('devices:write'),
  'DELETE /devices/{id}': scope('devices:write'),
  'POST /devices/{id}/test': scope('devices:write'),
  'GET /notifications': scope('notifications:read'),
  'PATCH /notifications': scope('notifications:write'),

  // Focus, goals, insights, planner, bug reports
  'GET /focus': scope('tasks:read'),
  'POST /focus': session(),
  'PATCH /focus/{id}': session(),
  'GET /goals': session(),
  'POST /goals': session(),
  'PUT /goals/{id}': session(),
  'DELETE /goals/{id}': session(),
  'GET /insights': session(),
  'POST /planner/plan': session(),
  'POST /planner/apply': session(),
  'GET /bug-reports': session(),
  'POST /bug-reports': session(),

  // Profile, organizations, sync
  'GET /me': session(),
  'PATCH /me': session(),
  'GET /me/bootstrap': scope('spaces:read'),
  'GET /me/plan': session(),
  'GET /organizations': scope('organizations:read'),
  'POST /organizations': session(),
  'POST /organizations/{id}/members': session(),
  'GET /sync': scope('sync:read'),

  // Projects and tasks (tasks per the addendum)
  'GET /projects': scope('projects:read'),
  'POST /projects': scope('projects:write'),
  'GET /projects/{id}': scope('projects:read'),
  'PATCH /projects/{id}': scope('projects:write'),
  'DELETE /projects/{id}': scope('projects:write'),
  'POST /projects/{id}/lists': scope('projects:write'),
  'GET /tasks': scope('tasks:read'),
  'POST /tasks': scope('tasks:write'),
  'GET /tasks/{id}': scope('tasks:read'),
  'PATCH /tasks/{id}': scope('tasks:write'),
  'DELETE /tasks/{id}': scope('tasks:write'),

  // Routines
  'GET /routines': scope('routines:read'),
  'POST /routines': session(),
  'GET /routines/conflicts': session(),
  'GET /routines/instances': session(),
  'PUT /routines/items/{itemId}/days/{date}': session(),
  'PUT /routines/periods/{periodId}/days/{date}': session(),
  'GET /routines/{id}': session(),
  'PATCH /routines/{id}': session(),
  'DELETE /routines/{id}': session(),

  // Spaces
  'GET /spaces': session(),
  'POST /spaces': session(),

  // Webhook management (addendum: session only)
  'GET /webhooks': session(),
  'POST /webhooks': session(),
  'PATCH /webhooks/{id}': session(),
  'DELETE /webhooks/{id}': session(),
  'POST /webhooks/{id}/test': session(),
  'GET /webhooks/{id}/deliveries': session(),
  'POST /webhooks/deliveries/{id}/redeliver': session(),
  'GET /webhooks/event-types': session(),
  // Inbound calls of the integration layer (messaging, payments, forms): verified by a shared-secret signature
  'POST /integrations/inbound': open(),
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
