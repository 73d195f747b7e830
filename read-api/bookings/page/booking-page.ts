/**
 * The booking pages, outside /api/v1: GET /book/{username}/{slug} (pick a time, book it, see the confirmation)
 * and GET /booking/{id}/cancel and /booking/{id}/reschedule (the links of the confirmation and of the mail, with
 * the manage token in the fragment). Small, accessible HTML; the script and the stylesheet are files.
 */
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { AppContext } from '../../../services/app-context';
import { rateLimit } from '../../../services/http/rate-limit';
import { ApiError } from '../../../services/errors';
import { publicType, publicTypeView } from '../bookings.queries';
import { BOOKING_SCRIPT } from './booking-page.script';
import { BOOKING_STYLES } from './booking-page.styles';

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function layout(title: string, data: Record<string, string>, main: string): string {
  const attributes = Object.entries(data).map(([k, v]) => ` data-${k}="${escape(v)}"`).join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<link rel="stylesheet" href="/book/assets/booking.css">
<link rel="icon" href="data:,">
</head>
<body${attributes}>
<main>
${main}
<p id="status" role="status" aria-live="polite"></p>
<noscript><p>This page needs JavaScript to list and book times.</p></noscript>
</main>
<script src="/book/assets/booking.js"></script>
</body>
</html>
`;
}

/** The month with its free days, then the chosen day's times (script/month.script.ts fills them in). */
const picker = (title: string, hidden: boolean, lengths = '') => `<section id="pick" aria-labelledby="pick-title"${hidden ? ' hidden' : ''}>
<h2 id="pick-title">${title}</h2>
${lengths}
<p class="zone"><label for="zone">Time zone</label> <select id="zone"></select></p>
<div class="picker">
<div class="month">
<div class="month-nav"><button type="button" id="prev-month" aria-label="Previous month">‹</button><h3 id="month-title"></h3><button type="button" id="next-month" aria-label="Next month">›</button></div>
<table class="month-grid" aria-labelledby="month-title"><thead><tr id="weekdays"></tr></thead><tbody id="month-days"></tbody></table>
</div>
<div class="times">
<h3 id="day-title"></h3>
<ul id="slots" aria-labelledby="day-title"></ul>
</div>
</div>
</section>`;

const confirmation = `<section id="done" hidden tabindex="-1" aria-labelledby="done-title">
<h2 id="done-title">Booked</h2>
<p id="done-text"></p>
<p class="actions" id="manage-links"><a id="reschedule-link" href="#">Move to another time</a> <a id="cancel-link" href="#">Cancel</a></p>
<p class="actions"><a id="book-again" href="#" hidden>Book a new time</a></p>
</section>`;

/** A move waits for the guest's yes, as a cancellation does. */
const confirmMove = `<section id="confirm-move" hidden tabindex="-1" aria-labelledby="confirm-move-title">
<h2 id="confirm-move-title"></h2>
<p class="actions"><button type="button" id="confirm-move-yes" class="primary">Confirm</button> <button type="button" id="move-back">Back</button></p>
</section>`;

/** "Mia", "Ana and Bo", "Ana, Bo or Cy": the people a guest meets (a round-robin type gives them one of them). */
export function hostNames(names: readonly string[], assignment: string | null): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} ${assignment === 'round_robin' ? 'or' : 'and'} ${names[names.length - 1]}`;
}

const minutes = (lengths: readonly number[]) => `${lengths.length > 1 ? `${lengths.slice(0, -1).join(', ')} or ` : ''}${lengths[lengths.length - 1]} minutes`;

/** The lengths to choose from, as toggle buttons (the script keeps one pressed); none for a type of one length. */
const lengthPicker = (lengths: readonly number[]) => lengths.length < 2 ? '' : `<div class="lengths" role="group" aria-labelledby="lengths-title">
<h3 id="lengths-title">Length</h3>
${lengths.map((m, i) => `<button type="button" class="length" data-minutes="${m}" aria-pressed="${i === 0}">${m} min</button>`).join(' ')}
</div>`;

export function bookPageHtml(view: ReturnType<typeof publicTypeView>): string {
  const t = view.meetingType;
  const names = hostNames(view.hosts.map((h) => h.name), t.assignment);
  const title = `${t.name} with ${names}`;
  const facts = [`with ${escape(names)}`, minutes(t.durations), ...(t.seats > 1 ? [`up to ${t.seats} guests a time`] : []), ...(t.location ? [escape(t.location)] : [])];
  const confirms = t.requiresConfirmation
    ? `<p class="notice" id="confirms">${escape(names)} ${view.hosts.length > 1 && t.assignment === 'collective' ? 'confirm' : 'confirms'} each booking: you will hear by email either way.</p>`
    : '';
  return layout(title, {
    page: 'book', username: view.host.username, slug: t.slug, lengths: t.durations.join(','), seats: String(t.seats),
  }, `<h1>${escape(t.name)}</h1>
<p class="meta">${facts.join(' · ')}</p>
${t.description ? `<p class="description">${escape(t.description)}</p>` : ''}
${confirms}
${picker('Pick a time', false, lengthPicker(t.durations))}
<form id="details" hidden aria-labelledby="details-title">
<h2 id="details-title">Your details</h2>
<p id="chosen"></p>
<p><label for="name">Name</label><input id="name" name="name" required maxlength="200" autocomplete="name"></p>
<p><label for="email">Email</label><input id="email" name="email" type="email" required maxlength="254" autocomplete="email"></p>
<p><label for="note">Anything to share beforehand? (optional)</label><textarea id="note" name="note" maxlength="2000" rows="3"></textarea></p>
<p class="actions"><button type="submit" id="book" class="primary">${t.requiresConfirmation ? 'Request' : 'Book'}</button> <button type="button" id="back">Choose another time</button></p>
</form>
${confirmation}`);
}

export function managePageHtml(kind: 'cancel' | 'reschedule', bookingId: string): string {
  const heading = kind === 'cancel' ? 'Cancel your booking' : 'Move your booking';
  const action = kind === 'cancel'
    ? '<p class="actions"><button type="button" id="confirm-cancel" class="primary" hidden>Cancel this booking</button></p>'
    : `${picker('Pick a new time', true)}\n${confirmMove}`;
  return layout(heading, { page: kind, id: bookingId }, `<h1>${heading}</h1>
<p id="booking"></p>
${action}
${confirmation}`);
}

const notFoundHtml = layout('Not found', {}, '<h1>This booking page does not exist</h1><p>Check the link you were given.</p>');

/** The pages' router; mounted by the HTTP app beside /api/v1 and rate-limited per address like the public API. */
export function bookingPages(app: AppContext): Router {
  const router = Router();
  const limit = rateLimit({ perCredential: app.config.RATE_LIMIT_PER_CREDENTIAL, perIp: app.config.RATE_LIMIT_PER_IP, windowMs: 60_000 }, async () => null);
  router.use(['/book', '/booking'], limit);
  router.get('/book/assets/booking.js', (_req, res) => void res.type('js').set('Cache-Control', 'public, max-age=300').send(BOOKING_SCRIPT));
  router.get('/book/assets/booking.css', (_req, res) => void res.type('css').set('Cache-Control', 'public, max-age=300').send(BOOKING_STYLES));
  router.get('/book/:username/:slug', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const found = await publicType(app.readModels, String(req.params.username), String(req.params.slug));
      res.type('html').send(bookPageHtml(publicTypeView(found)));
    } catch (err) {
      if (err instanceof ApiError && err.status === 404) return void res.status(404).type('html').send(notFoundHtml);
      next(err);
    }
  });
  router.get('/booking/:id/:kind', (req: Request, res: Response) => {
    const kind = req.params.kind;
    if (!UUID.test(String(req.params.id)) || (kind !== 'cancel' && kind !== 'reschedule')) return void res.status(404).type('html').send(notFoundHtml);
    res.type('html').send(managePageHtml(kind, String(req.params.id).toLowerCase()));
  });
  return router;
}
