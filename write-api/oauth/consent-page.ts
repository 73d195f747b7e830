/** The server-rendered consent and error pages of /oauth/authorize. Every interpolated value goes through `escape`. */
import type { AuthorizeParams } from '../../contracts/oauth';

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

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escape = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]);

const STYLE = `body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#222}
h1{font-size:1.4rem}li{margin:.3rem 0}code{color:#555}form{display:flex;gap:1rem;margin-top:2rem}
button{font-size:1rem;padding:.5rem 1.5rem}`;

const page = (title: string, content: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title><style>${STYLE}</style></head><body>
${content}
</body></html>`;

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
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  );
}

export const errorPage = (message: string) =>
  page('Authorization failed', `<h1>This authorization request cannot be completed</h1>
<p>${escape(message)}</p>
<p>The application sent you here with a request that does not match its registration, so you are not sent back to it.</p>`);

/** Headers of both pages: never cached, never framed (clickjacking), no scripts; the form may go to us and on to the client. */
export function pageHeaders(redirectOrigin: string | null): Record<string, string> {
  const formAction = ["'self'", redirectOrigin].filter(Boolean).join(' ');
  return {
    'Cache-Control': 'no-store',
    'X-Frame-Options': 'DENY',
    'Content-Security-Policy':
      `default-src 'none'; style-src 'unsafe-inline'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  };
}
