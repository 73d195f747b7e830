/**
 * Subscriptions to calendars elsewhere (addendum, "iCalendar (RFC 5545) out and in"): an iCalendar address or a
 * CalDAV collection the service fetches into a read-only calendar. The design: docs/subscriptions.md.
 */
import { z } from 'zod';
import { ErrorEnvelope, IdParams, NonBlankText } from './common';
import * as examples from './examples';
import { IMPORT_MAX_BYTES } from './ical';
import { op } from './operation';
import { Color, ListedCalendar } from './spaces';

/** A fetched text is cut off (and the fetch failed) beyond this: the import's limit. */
export const SOURCE_MAX_BYTES = IMPORT_MAX_BYTES;
/** Subscriptions one Space holds at most: each is fetched every 15 minutes. */
export const MAX_SUBSCRIPTIONS = 100;

export const SubscriptionUrl = z
  .url({ protocol: /^(https?|webcals?)$/, hostname: /^.+$/ })
  .max(2000)
  // The same rule for the document: the scheme, a host, no credentials before it.
  .meta({ pattern: '^(?:[Hh][Tt][Tt][Pp][Ss]?|[Ww][Ee][Bb][Cc][Aa][Ll][Ss]?)://[^/?#@\\s]+([/?#].*)?$' })
  .describe('An iCalendar (.ics) address (`webcal://` is read as `https://`) or, with `username`/`password`, a CalDAV '
    + 'calendar collection. Without credentials in it (`user:pass@`): give them as `username`/`password`.');

export const SubscribeBody = z
  .object({
    url: SubscriptionUrl,
    name: NonBlankText(200),
    color: Color.optional(),
    username: z.string().min(1).max(200).optional().describe('HTTP Basic user name for the address (CalDAV); kept encrypted'),
    password: z.string().min(1).max(1000).optional().describe('HTTP Basic password; kept encrypted, never shown again'),
  })
  .meta({
    id: 'SubscribeBody',
    // Basic credentials come as a pair (400 otherwise).
    dependentRequired: { username: ['password'], password: ['username'] },
    examples: [
      { url: 'https://holidays.example.org/de/public-holidays.ics', name: 'Public holidays', color: '#33aa66' },
      { url: 'https://dav.example.com/ada/work/', name: 'Work (CalDAV)', username: 'ada', password: 'app-password-1' },
    ],
  });
export type SubscribeBody = z.infer<typeof SubscribeBody>;

export const SubscribedCalendarResponse = z
  .object({ calendar: ListedCalendar })
  .meta({ id: 'SubscribedCalendarResponse', examples: [{ calendar: { ...examples.subscribedCalendar, role: 'owner', readOnly: true } }] });

const notFound = { description: 'No such calendar of the caller', schema: ErrorEnvelope };
const notSubscription = { description: 'A calendar made here, not a subscription (`not_a_subscription`)', schema: ErrorEnvelope };

export const subscriptionOperations = [
  op({
    method: 'post', path: '/calendars/subscriptions', tag: 'Calendars', summary: 'Subscribe to a calendar elsewhere',
    description:
      'Makes a read-only calendar in the personal Space whose events come from `url`: fetched at once, then every 15 '
      + 'minutes (conditional GET: an unchanged source changes nothing) and on POST /calendars/{id}/refresh. Each fetch '
      + 'creates, updates and cancels the calendar\'s events by UID (events gone from the source are cancelled), through '
      + 'the same events, webhooks and /sync as REST; its events count as busy. The same address rules as webhooks: '
      + 'loopback, link-local and private addresses are refused (400), at every redirect too. At most '
      + `${SOURCE_MAX_BYTES / 1e6} MB and the import's limits per fetch. \`lastError\` says why the last fetch failed.`,
    body: SubscribeBody,
    responses: {
      201: { description: 'Subscribed; the first fetch follows', schema: SubscribedCalendarResponse },
      400: { description: 'Not an http(s) or webcal address, credentials in it, or a private address', schema: ErrorEnvelope },
      409: { description: `\`too_many_subscriptions\`: the personal Space holds ${MAX_SUBSCRIPTIONS} already`, schema: ErrorEnvelope },
    },
  }),
  op({
    method: 'post', path: '/calendars/{id}/refresh', tag: 'Calendars', summary: 'Fetch a subscribed calendar now',
    description: 'Queues a fetch of the subscription at once (a fetch under way finishes first); `lastFetchedAt` moves when it succeeds.',
    params: IdParams,
    responses: {
      202: { description: 'Queued', schema: SubscribedCalendarResponse },
      404: notFound,
      409: notSubscription,
    },
  }),
  op({
    method: 'delete', path: '/calendars/{id}', tag: 'Calendars', summary: 'Unsubscribe (delete a subscribed calendar)',
    description:
      'Deletes a subscription: its events are cancelled (as webhooks and /sync report), the calendar leaves GET '
      + '/calendars, and its credentials are deleted. Calendars made here cannot be deleted (409 `not_a_subscription`).',
    params: IdParams,
    responses: { 204: { description: 'Unsubscribed' }, 404: notFound, 409: notSubscription },
  }),
];
