/**
 * The booking pages' script, served as a file (/book/assets/booking.js: the Content-Security-Policy allows no
 * inline script). Plain browser JavaScript, no framework: it lists slots in the browser's time zone, books one and
 * shows the confirmation; on /booking/{id}/cancel and /reschedule it manages a booking with the token from the
 * URL's fragment (#token=…, never sent to the server in the URL).
 */
export const BOOKING_SCRIPT = String.raw`'use strict';
(function () {
  var API = '/api/v1';
  var body = document.body;
  var page = body.getAttribute('data-page');
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  var DAYS = 7;
  var $ = function (id) { return document.getElementById(id); };

  function status(text) { $('status').textContent = text; }

  function call(method, path, payload, token) {
    var headers = { 'Accept': 'application/json' };
    if (payload !== undefined) headers['Content-Type'] = 'application/json';
    if (token) headers['X-Booking-Token'] = token;
    return fetch(API + path, { method: method, headers: headers, body: payload === undefined ? undefined : JSON.stringify(payload) })
      .then(function (res) {
        return res.json().catch(function () { return {}; }).then(function (json) { return { status: res.status, body: json }; });
      });
  }

  function problem(res) {
    var code = res.body && res.body.error ? res.body.error.code : '';
    if (code === 'slot_taken') return 'Someone just took that time. Please choose another.';
    if (code === 'slot_unavailable') return 'That time can no longer be booked. Please choose another.';
    if (code === 'rate_limited') return 'Too many tries. Please wait a minute.';
    if (res.status === 400) return 'Please check your details: ' + (res.body.error.details.issues || []).map(function (i) { return i.path.replace(/^body\./, '') + ' ' + i.message; }).join('; ');
    return (res.body && res.body.error && res.body.error.message) || 'Something went wrong.';
  }

  function dayTitle(date) {
    return new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })
      .format(new Date(date + 'T12:00:00Z'));
  }

  function when(instant) {
    return new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short', timeZone: zone }).format(new Date(instant));
  }

  function today() {
    var parts = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date());
    return parts.slice(0, 10);
  }

  function addDays(date, n) {
    return new Date(Date.parse(date + 'T00:00:00Z') + n * 86400000).toISOString().slice(0, 10);
  }

  /** Renders slots grouped by day as lists of buttons; pick(slot) is called with the chosen one. */
  function renderSlots(container, slots, pick) {
    container.textContent = '';
    if (slots.length === 0) {
      var none = document.createElement('p');
      none.textContent = 'No free times in these days.';
      container.appendChild(none);
      return;
    }
    var byDay = {};
    var order = [];
    slots.forEach(function (s) {
      if (!byDay[s.date]) { byDay[s.date] = []; order.push(s.date); }
      byDay[s.date].push(s);
    });
    order.forEach(function (date) {
      var group = document.createElement('section');
      group.className = 'day';
      var h = document.createElement('h3');
      h.id = 'day-' + date;
      h.textContent = dayTitle(date);
      var list = document.createElement('ul');
      list.setAttribute('aria-labelledby', h.id);
      byDay[date].forEach(function (s) {
        var li = document.createElement('li');
        var b = document.createElement('button');
        b.type = 'button';
        b.className = 'slot';
        b.textContent = s.time;
        b.setAttribute('data-start', s.startsAt);
        b.setAttribute('aria-label', dayTitle(date) + ' ' + s.time);
        b.addEventListener('click', function () { pick(s); });
        li.appendChild(b);
        list.appendChild(li);
      });
      group.appendChild(h);
      group.appendChild(list);
      container.appendChild(group);
    });
  }

  /** A slot picker with day paging; load(from) resolves to {slots}. */
  function picker(load, pick) {
    var from = today();
    /** Loads and lists the times; 'message' (an error to keep in view) replaces the usual summary. */
    var show = function (message) {
      $('slots').setAttribute('aria-busy', 'true');
      status(message || 'Loading times…');
      load(from).then(function (res) {
        $('slots').removeAttribute('aria-busy');
        if (res.status !== 200) { status(problem(res)); return; }
        renderSlots($('slots'), res.body.slots, pick);
        status(message || res.body.slots.length + ' times from ' + dayTitle(from) + '.');
      });
    };
    $('earlier').addEventListener('click', function () {
      if (from <= today()) return;
      from = addDays(from, -DAYS);
      show('');
    });
    $('later').addEventListener('click', function () { from = addDays(from, DAYS); show(''); });
    $('zone-name').textContent = zone;
    show('');
    return show;
  }

  function manageLinks(id, token) {
    var fragment = '#token=' + encodeURIComponent(token);
    $('reschedule-link').href = '/booking/' + id + '/reschedule' + fragment;
    $('cancel-link').href = '/booking/' + id + '/cancel' + fragment;
  }

  function done(title, text) {
    $('done-title').textContent = title;
    $('done-text').textContent = text;
    $('done').hidden = false;
    $('done').focus();
  }

  function bookPage() {
    var base = '/public/' + encodeURIComponent(body.getAttribute('data-username')) + '/' + encodeURIComponent(body.getAttribute('data-slug'));
    var chosen = null;
    var refresh = picker(function (from) {
      return call('GET', base + '/slots?from=' + from + '&days=' + DAYS + '&timeZone=' + encodeURIComponent(zone));
    }, function (slot) {
      chosen = slot;
      $('chosen').textContent = 'You chose ' + when(slot.startsAt) + '.';
      $('details').hidden = false;
      $('name').focus();
    });
    $('back').addEventListener('click', function () { $('details').hidden = true; chosen = null; });
    $('details').addEventListener('submit', function (e) {
      e.preventDefault();
      if (!chosen) return;
      var submit = $('book');
      submit.disabled = true;
      status('Booking…');
      var note = $('note').value.trim();
      call('POST', base + '/bookings', {
        startsAt: chosen.startsAt, guest: { name: $('name').value.trim(), email: $('email').value.trim() },
        note: note || null, timeZone: zone,
      }).then(function (res) {
        submit.disabled = false;
        if (res.status !== 201) {
          if (res.status === 409) { $('details').hidden = true; refresh(problem(res)); } else status(problem(res));
          return;
        }
        $('pick').hidden = true;
        $('details').hidden = true;
        status('');
        manageLinks(res.body.booking.id, res.body.manageToken);
        done('You are booked', res.body.booking.meetingType.name + ' with ' + res.body.booking.host.name + ', ' + when(res.body.booking.startsAt)
          + '. A confirmation is on its way to ' + res.body.booking.guest.email + '.');
      });
    });
  }

  function managePage(kind) {
    var id = body.getAttribute('data-id');
    var match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
    var token = match ? decodeURIComponent(match[1]) : '';
    var path = '/public/bookings/' + encodeURIComponent(id);
    var describe = function (b) {
      $('booking').textContent = b.meetingType.name + ' with ' + b.host.name + ', ' + when(b.startsAt)
        + (b.status === 'cancelled' ? ' (cancelled)' : '');
    };
    var load = function (from) {
      return call('GET', path + '/reschedule?from=' + from + '&days=' + DAYS + '&timeZone=' + encodeURIComponent(zone), undefined, token)
        .then(function (res) { if (res.status === 200) describe(res.body.booking); return res; });
    };
    if (!token) { status('This link is incomplete: open the link from your confirmation.'); return; }
    manageLinks(id, token);
    if (kind === 'cancel') {
      load(today()).then(function (res) {
        if (res.status !== 200) { status(problem(res)); return; }
        if (res.body.booking.status === 'cancelled') { done('Cancelled', 'This booking is cancelled.'); return; }
        $('confirm-cancel').hidden = false;
      });
      $('confirm-cancel').addEventListener('click', function () {
        $('confirm-cancel').disabled = true;
        call('POST', path + '/cancel', undefined, token).then(function (res) {
          if (res.status !== 200) { $('confirm-cancel').disabled = false; status(problem(res)); return; }
          describe(res.body.booking);
          $('confirm-cancel').hidden = true;
          done('Cancelled', 'Your booking is cancelled. ' + res.body.booking.host.name + ' has been told.');
        });
      });
      return;
    }
    var refresh = picker(load, function (slot) {
      status('Moving…');
      call('POST', path + '/reschedule', { startsAt: slot.startsAt }, token).then(function (res) {
        if (res.status !== 200) { if (res.status === 409) refresh(problem(res)); else status(problem(res)); return; }
        describe(res.body.booking);
        $('pick').hidden = true;
        status('');
        done('Moved', 'Your booking is now ' + when(res.body.booking.startsAt) + '.');
      });
    });
  }

  if (page === 'book') bookPage();
  else if (page === 'cancel' || page === 'reschedule') managePage(page);
})();
`;
