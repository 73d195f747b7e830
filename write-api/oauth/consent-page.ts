/** The consent page of /oauth/authorize: the application's name and the scopes it asks for, and Allow / Deny. */
import type { AuthorizeParams } from '../../contracts/oauth';
import { escape, page } from './pages';

const SCOPE_TEXT: Record<string, string> = {
  'events:read': 'See your events and invitations',
  'events:create': 'Create events',
  'events:update': 'Change your events',
  'events:delete': 'Cancel your events',
  'events:write': 'Answer invitations',
  'calendars:read': 'See your calendars',
  'calendars:write': 'Create calendars',
  'availability:read': 'See when you are free or busy',
  'tasks:read': 'See your tasks and focus sessions',
  'tasks:write': 'Create and change tasks',
  'projects:read': 'See your projects',
  'projects:write': 'Create and change projects',
  'spaces:read': 'See your Spaces, calendars and profile',
  'organizations:read': 'See your organizations',
  'routines:read': 'See your routines',
  'routines:write': 'Change your routines',
  'bookings:read': 'See your bookings and meeting types',
  'bookings:write': 'Manage your bookings and meeting types',
  'notifications:read': 'See your notifications',
  'notifications:write': 'Mark notifications read',
  'devices:write': 'Manage your push devices',
  'sync:read': 'Read all changes for syncing',
  'automations:read': 'See your automations',
  'automations:write': 'Create and change automations',
};

export interface ConsentView {
  applicationName: string;
  userName: string;
  scopes: string[];
  /** The request's parameters, carried by the form to the POST unchanged (with the resolved scope). */
  params: AuthorizeParams;
}

export function consentPage(view: ConsentView): string {
  const hidden = Object.entries(view.params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<input type="hidden" name="${escape(k)}" value="${escape(String(v))}">`)
    .join('\n');
  const scopes = view.scopes
    .map((s) => `<li>${escape(SCOPE_TEXT[s] ?? s)} <code>${escape(s)}</code></li>`)
    .join('\n');
  return page(
    `Allow ${view.applicationName}?`,
    `<h1><strong>${escape(view.applicationName)}</strong> wants to access your calendar account</h1>
<p>Signed in as ${escape(view.userName)}. If you allow it, the application will be able to:</p>
<ul>
${scopes}
</ul>
<form method="post" action="authorize">
${hidden}
<div class="actions">
<button type="submit" name="decision" value="allow" class="primary">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</div>
</form>`,
  );
}
