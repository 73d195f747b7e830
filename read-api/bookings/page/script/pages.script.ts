/**
 * The booking script's pages: book a time (a length when the type offers several, a time with its seats left,
 * details, then the confirmation: booked, or a request awaiting the host's), and manage a booking with the token
 * from the URL's fragment (#token=…, never sent to the server in a URL): move it after a confirm step, cancel it
 * after one, and a cancelled or declined booking says so and offers to book again.
 */
export const pagesScript = String.raw`
  var API = '/api/v1';
  var body = document.body;

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
    if (code === 'booking_cancelled') return 'This booking is cancelled.';
    if (code === 'rate_limited') return 'Too many tries. Please wait a minute.';
    if (res.status === 400) return 'Please check your details: ' + (res.body.error.details.issues || []).map(function (i) { return i.path.replace(/^body\./, '') + ' ' + i.message; }).join('; ');
    return (res.body && res.body.error && res.body.error.message) || 'Something went wrong.';
  }

  /** "Mia", "Ana and Bo", "Ana, Bo or Cy" (round robin: one of them). */
  function hostNames(hosts, assignment) {
    var names = hosts.map(function (h) { return h.name; });
    if (names.length <= 1) return names[0] || '';
    return names.slice(0, -1).join(', ') + (assignment === 'round_robin' ? ' or ' : ' and ') + names[names.length - 1];
  }

  /** The booking in a sentence: what, with whom (the host it went to), when. */
  function bookingText(b) {
    return b.meetingType.name + ' with ' + hostNames(b.hosts, null) + ', ' + whenText(b.startsAt);
  }

  function slotsQuery(from, days) {
    return '?from=' + from + '&days=' + days + '&timeZone=' + encodeURIComponent(zone);
  }

  function manageLinks(id, token) {
    var fragment = '#token=' + encodeURIComponent(token);
    $('reschedule-link').href = '/booking/' + id + '/reschedule' + fragment;
    $('cancel-link').href = '/booking/' + id + '/cancel' + fragment;
  }

  /** The closing message; 'again' (a cancelled booking's type page) replaces the manage links by a book-again link. */
  function done(title, text, again) {
    $('done-title').textContent = title;
    $('done-text').textContent = text;
    $('manage-links').hidden = !!again;
    $('book-again').hidden = !again;
    if (again) $('book-again').href = again;
    $('done').hidden = false;
    $('done').focus();
  }

  /** The step after a time is picked (the details form, the move's confirmation) in place of the times. */
  function fromTimes(step, focus) {
    $('pick').hidden = true;
    $(step).hidden = false;
    status('');
    $(focus).focus();
  }

  /** Leaves that step for the times again, focus on the time it was for. */
  function backToTimes(step, slot) {
    $(step).hidden = true;
    $('pick').hidden = false;
    var button = slot && document.querySelector('button.slot[data-start="' + slot.startsAt + '"]');
    if (button) button.focus();
  }

  function bookPage() {
    var base = '/public/' + encodeURIComponent(body.getAttribute('data-username')) + '/' + encodeURIComponent(body.getAttribute('data-slug'));
    var length = +(body.getAttribute('data-lengths') || '').split(',')[0];
    var chosen = null;
    var back = function () { backToTimes('details', chosen); chosen = null; };
    var refresh = monthPicker(function (from, days) { return call('GET', base + '/slots' + slotsQuery(from, days) + '&durationMinutes=' + length); }, function (slot) {
      chosen = slot;
      $('chosen').textContent = 'You chose ' + whenText(slot.startsAt) + ', ' + length + ' minutes.';
      fromTimes('details', 'name');
    }, function () { return null; });
    document.querySelectorAll('button.length').forEach(function (button) {
      button.addEventListener('click', function () {
        length = +button.getAttribute('data-minutes');
        document.querySelectorAll('button.length').forEach(function (b) { b.setAttribute('aria-pressed', String(b === button)); });
        refresh('');
      });
    });
    $('back').addEventListener('click', back);
    $('details').addEventListener('submit', function (e) {
      e.preventDefault();
      if (!chosen) return;
      var submit = $('book');
      submit.disabled = true;
      status('Booking…');
      var note = $('note').value.trim();
      call('POST', base + '/bookings', {
        startsAt: chosen.startsAt, durationMinutes: length, guest: { name: $('name').value.trim(), email: $('email').value.trim() },
        note: note || null, timeZone: zone,
      }).then(function (res) {
        submit.disabled = false;
        if (res.status !== 201) {
          if (res.status === 409) { back(); refresh(problem(res)); } else status(problem(res));
          return;
        }
        var b = res.body.booking;
        var names = hostNames(b.hosts, null);
        $('details').hidden = true;
        status('');
        manageLinks(b.id, res.body.manageToken);
        if (b.status === 'pending') {
          done('Request sent', bookingText(b) + '. It awaits ' + names + '\'s confirmation: you will get an email at ' + b.guest.email + ' either way.');
        } else {
          done('You are booked', bookingText(b) + '. A confirmation is on its way to ' + b.guest.email + '.');
        }
      });
    });
  }

  function managePage(kind) {
    var id = body.getAttribute('data-id');
    var match = /(?:^#|&)token=([^&]+)/.exec(location.hash);
    var token = match ? decodeURIComponent(match[1]) : '';
    var path = '/public/bookings/' + encodeURIComponent(id);
    var booking = null;
    var STATES = { pending: ' (awaiting the host\'s confirmation)', cancelled: ' (cancelled)', declined: ' (declined)' };
    var ended = function (b) { return b.status === 'cancelled' || b.status === 'declined'; };
    var describe = function (b) {
      booking = b;
      $('booking').textContent = bookingText(b) + (STATES[b.status] || '');
    };
    var cancelled = function (text) {
      var declined = booking.status === 'declined';
      if ($('pick')) $('pick').hidden = true;
      $('booking').hidden = true;
      document.querySelector('h1').textContent = 'Your booking';
      status('');
      done(declined ? 'This booking was declined' : 'This booking is cancelled',
        text || bookingText(booking) + (declined ? ': the host could not take it.' : ' was cancelled.'),
        '/book/' + encodeURIComponent(booking.host.username) + '/' + encodeURIComponent(booking.meetingType.slug));
    };
    /** The booking and its slots; a cancelled booking is shown as such and lists nothing (null). */
    var load = function (from, days) {
      return call('GET', path + '/reschedule' + slotsQuery(from, days), undefined, token).then(function (res) {
        if (res.status !== 200) return res;
        describe(res.body.booking);
        if (ended(res.body.booking)) { cancelled(); return null; }
        if ($('pick')) $('pick').hidden = false;
        return res;
      });
    };
    if (!token) { status('This link is incomplete: open the link from your confirmation.'); return; }
    manageLinks(id, token);
    if (kind === 'cancel') return cancelPage(load, path, token, describe, cancelled);

    var moveTo = null;
    var back = function () { backToTimes('confirm-move', moveTo); moveTo = null; };
    var refresh = monthPicker(load, function (slot) {
      moveTo = slot;
      $('confirm-move-title').textContent = 'Move to ' + whenText(slot.startsAt) + '?';
      fromTimes('confirm-move', 'confirm-move');
    }, function () { return booking && booking.startsAt; });
    $('move-back').addEventListener('click', back);
    $('confirm-move-yes').addEventListener('click', function () {
      if (!moveTo) return;
      $('confirm-move-yes').disabled = true;
      status('Moving…');
      call('POST', path + '/reschedule', { startsAt: moveTo.startsAt }, token).then(function (res) {
        $('confirm-move-yes').disabled = false;
        if (res.status !== 200) {
          if (res.body && res.body.error && res.body.error.code === 'booking_cancelled') { $('confirm-move').hidden = true; cancelled(); return; }
          if (res.status === 409) { back(); refresh(problem(res)); } else status(problem(res));
          return;
        }
        describe(res.body.booking);
        $('confirm-move').hidden = true;
        status('');
        done('Moved', 'Your booking is now ' + whenText(res.body.booking.startsAt) + '.');
      });
    });
  }

  function cancelPage(load, path, token, describe, cancelled) {
    load(today(), 1).then(function (res) {
      if (!res) return;
      if (res.status !== 200) { status(problem(res)); return; }
      $('confirm-cancel').hidden = false;
    });
    $('confirm-cancel').addEventListener('click', function () {
      $('confirm-cancel').disabled = true;
      call('POST', path + '/cancel', undefined, token).then(function (res) {
        if (res.status !== 200) { $('confirm-cancel').disabled = false; status(problem(res)); return; }
        describe(res.body.booking);
        $('confirm-cancel').hidden = true;
        var hosts = res.body.booking.hosts;
        cancelled('Your booking is cancelled. ' + hostNames(hosts, null) + (hosts.length > 1 ? ' have' : ' has') + ' been told.');
      });
    });
  }
`;
