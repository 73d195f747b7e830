/**
 * The booking script's time picker, as guests know it from Cal.com and Calendly: a month with the days that have
 * free time, previous and next month (never before this month, never past the booking horizon), then the chosen
 * day's times (with the seats left, for a type with several). The month grid is one tab stop; arrow keys move
 * between its free days.
 */
export const monthScript = (horizonDays: number) => String.raw`
  var HORIZON_DAYS = ${horizonDays};
  /** Guests per time (the type's seats): the times then say how many are left. */
  var SEATS = +(document.body.getAttribute('data-seats') || 1);

  function lastDayOf(month) {
    return new Date(Date.UTC(+month.slice(0, 4), +month.slice(5, 7), 0)).toISOString().slice(0, 10);
  }

  function shiftMonth(month, n) {
    return new Date(Date.UTC(+month.slice(0, 4), +month.slice(5, 7) - 1 + n, 1)).toISOString().slice(0, 7);
  }

  function fillWeekdays() {
    var row = $('weekdays');
    var start = firstWeekday();
    row.textContent = '';
    for (var i = 0; i < 7; i++) {
      var date = addDays('2024-01-01', (start - 1 + i) % 7); // 2024-01-01 was a Monday
      var th = document.createElement('th');
      th.scope = 'col';
      th.abbr = dayTitle(date, { weekday: 'long' });
      th.textContent = dayTitle(date, { weekday: 'short' });
      row.appendChild(th);
    }
  }

  /**
   * load(from, days) resolves to an API answer with slots, or to null when the page took the answer over; pick(slot)
   * gets the time chosen; current() is a start to show as the booking's own (not pickable). Returns refresh(message).
   */
  function monthPicker(load, pick, current) {
    var month = today().slice(0, 7);
    var selected = null;
    var byDay = {};
    var seq = 0;

    function rove(button) {
      document.querySelectorAll('#month-days button.day').forEach(function (b) { b.tabIndex = b === button ? 0 : -1; });
    }

    function choose(date) {
      selected = date;
      document.querySelectorAll('#month-days button.day:not([disabled])').forEach(function (b) {
        b.setAttribute('aria-pressed', String(b.getAttribute('data-date') === date));
      });
      rove(document.querySelector('#month-days button[data-date="' + date + '"]'));
      renderTimes();
      status(byDay[date].length + ' times on ' + dayTitle(date) + '.');
    }

    function dayButton(date, now) {
      var count = (byDay[date] || []).length;
      var b = document.createElement('button');
      b.type = 'button';
      b.className = 'day';
      b.textContent = String(+date.slice(8));
      b.setAttribute('data-date', date);
      b.setAttribute('aria-label', dayTitle(date) + (count ? '' : ', no free times'));
      b.disabled = count === 0;
      if (count) b.setAttribute('aria-pressed', String(date === selected));
      if (date === now) b.setAttribute('aria-current', 'date');
      b.tabIndex = date === selected ? 0 : -1;
      b.addEventListener('click', function () { choose(date); });
      return b;
    }

    function renderMonth() {
      var body = $('month-days');
      var first = month + '-01';
      var last = lastDayOf(month);
      var now = today();
      var date = addDays(first, -((weekdayOf(first) - firstWeekday() + 7) % 7));
      var row = null;
      body.textContent = '';
      for (var i = 0; i < 42 && (i % 7 !== 0 || date <= last); i++, date = addDays(date, 1)) {
        if (i % 7 === 0) row = body.appendChild(document.createElement('tr'));
        var cell = row.appendChild(document.createElement('td'));
        if (date.slice(0, 7) === month) cell.appendChild(dayButton(date, now));
      }
    }

    function renderTimes() {
      var list = $('slots');
      list.textContent = '';
      $('day-title').textContent = selected ? dayTitle(selected) : 'No free times in ' + monthTitle(month);
      (selected ? byDay[selected] : []).forEach(function (s) {
        var b = document.createElement('button');
        b.type = 'button';
        b.className = 'slot';
        b.textContent = timeText(s.startsAt);
        b.setAttribute('data-start', s.startsAt);
        if (s.startsAt === current()) {
          b.disabled = true;
          b.textContent += ' (current)';
        }
        if (SEATS > 1) {
          var left = s.seatsLeft === 1 ? '1 seat left' : s.seatsLeft + ' seats left';
          b.setAttribute('aria-label', b.textContent + ', ' + left);
          var seats = b.appendChild(document.createElement('span'));
          seats.className = 'seats';
          seats.setAttribute('aria-hidden', 'true');
          seats.textContent = left;
        }
        b.addEventListener('click', function () { pick(s); });
        list.appendChild(document.createElement('li')).appendChild(b);
      });
    }

    /** Loads the month; with 'advance', an empty month moves on to the next one (at most that many times). */
    function show(message, advance) {
      var mine = ++seq;
      var now = today();
      var horizon = addDays(now, HORIZON_DAYS);
      var first = month + '-01' < now ? now : month + '-01';
      var last = lastDayOf(month) < horizon ? lastDayOf(month) : horizon;
      $('prev-month').disabled = month <= now.slice(0, 7);
      $('next-month').disabled = shiftMonth(month, 1) + '-01' > horizon;
      if (document.activeElement && document.activeElement.disabled) $(document.activeElement.id === 'prev-month' ? 'next-month' : 'prev-month').focus();
      $('month-title').textContent = monthTitle(month);
      $('pick').setAttribute('aria-busy', 'true');
      status(message || 'Loading free times…');
      load(first, Math.round((Date.parse(last) - Date.parse(first)) / 86400000) + 1).then(function (res) {
        if (mine !== seq || !res) return;
        $('pick').removeAttribute('aria-busy');
        if (res.status !== 200) { status(problem(res)); return; }
        var days = [];
        byDay = {};
        res.body.slots.forEach(function (s) {
          if (!byDay[s.date]) { byDay[s.date] = []; days.push(s.date); }
          byDay[s.date].push(s);
        });
        if (!days.length && advance > 0 && !$('next-month').disabled) {
          month = shiftMonth(month, 1);
          show(message, advance - 1);
          return;
        }
        if (!byDay[selected]) selected = days[0] || null;
        renderMonth();
        renderTimes();
        status(message || (days.length ? days.length + ' days with free times in ' + monthTitle(month) + '.' : 'No free times in ' + monthTitle(month) + '.'));
        if (message && selected) document.querySelector('#month-days button[data-date="' + selected + '"]').focus();
      });
    }

    $('month-days').addEventListener('keydown', function (e) {
      var step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7 }[e.key];
      var from = e.target.getAttribute('data-date');
      if (!step || !from) return;
      e.preventDefault();
      var target = addDays(from, step);
      var free = [].slice.call(document.querySelectorAll('#month-days button.day:not([disabled])'));
      var next = step > 0
        ? free.filter(function (b) { return b.getAttribute('data-date') >= target; })[0]
        : free.filter(function (b) { return b.getAttribute('data-date') <= target; }).pop();
      if (next) { rove(next); next.focus(); }
    });
    $('prev-month').addEventListener('click', function () { month = shiftMonth(month, -1); show('', 0); });
    $('next-month').addEventListener('click', function () { month = shiftMonth(month, 1); show('', 0); });
    $('zone').addEventListener('change', function () { zone = $('zone').value; show('', 0); });
    fillWeekdays();
    fillZones($('zone'));
    show('', 2);
    return function (message) { show(message, 0); };
  }
`;
