/**
 * The booking script's words for time, all from Intl in the browser's locale: the locale's short time on buttons and
 * in sentences alike, day and month titles, the first day of the week, and time zones named for people (primary
 * IANA ids for the aliases browsers report, their city, Intl's generic zone name).
 */
/** `primary`: alias -> primary zone id (time-zones.ts). */
export const intlScript = (primary: Record<string, string>) => String.raw`
  var PRIMARY_ZONE = ${JSON.stringify(primary)};
  var TIME = { timeStyle: 'short' };
  var DATE = { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' };

  function primaryZone(id) { return PRIMARY_ZONE[id] || id; }
  var zone = primaryZone(Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC');

  function format(options, instant, timeZone) {
    return new Intl.DateTimeFormat(undefined, Object.assign({ timeZone: timeZone || zone }, options)).format(new Date(instant));
  }

  /** The zone's generic name in the guest's language ("India Standard Time", "Mitteleuropäische Zeit"). */
  function zoneName(id) {
    var part = new Intl.DateTimeFormat(undefined, { timeZone: id, timeZoneName: 'longGeneric' }).formatToParts(new Date())
      .filter(function (p) { return p.type === 'timeZoneName'; })[0];
    return part ? part.value : id;
  }

  /** "Kolkata", "Ho Chi Minh": the last part of the primary id. */
  function zoneCity(id) { return id.split('/').pop().replace(/_/g, ' '); }

  /** Button text: "3:00 PM" in en-US, "15:00" in de-DE. */
  function timeText(instant) { return format(TIME, instant); }

  /** Sentence text: the day and the same short time as on the buttons, then the zone's name. */
  function whenText(instant) {
    return format({ dateStyle: 'full', timeStyle: TIME.timeStyle }, instant) + ' (' + zoneName(zone) + ')';
  }

  /** A YYYY-MM-DD date, already read in the guest's zone. */
  function dayTitle(date, options) {
    return format(options || DATE, date + 'T12:00:00Z', 'UTC');
  }

  function monthTitle(month) { return format({ month: 'long', year: 'numeric' }, month + '-15T12:00:00Z', 'UTC'); }

  /** ISO weekday (1 = Monday ... 7 = Sunday) a week starts on in the guest's locale. */
  function firstWeekday() {
    try {
      var locale = new Intl.Locale(navigator.language);
      var info = locale.getWeekInfo ? locale.getWeekInfo() : locale.weekInfo;
      return info && info.firstDay ? info.firstDay : 1;
    } catch (e) { return 1; }
  }

  function today() {
    return new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date()).slice(0, 10);
  }

  function addDays(date, n) {
    return new Date(Date.parse(date + 'T00:00:00Z') + n * 86400000).toISOString().slice(0, 10);
  }

  /** ISO weekday of a date. */
  function weekdayOf(date) { return new Date(date + 'T00:00:00Z').getUTCDay() || 7; }

  /** The select of every zone the browser knows, under its primary id, by area then city; the current one chosen. */
  function fillZones(select) {
    var seen = {};
    var groups = {};
    (Intl.supportedValuesOf ? Intl.supportedValuesOf('timeZone') : []).concat([zone]).forEach(function (id) {
      var primary = primaryZone(id);
      if (seen[primary]) return;
      seen[primary] = true;
      var area = primary.indexOf('/') > 0 ? primary.split('/')[0] : 'Other';
      (groups[area] = groups[area] || []).push({ id: primary, label: zoneCity(primary) + ' — ' + zoneName(primary) });
    });
    select.textContent = '';
    Object.keys(groups).sort().forEach(function (area) {
      var group = document.createElement('optgroup');
      group.label = area;
      groups[area].sort(function (a, b) { return a.label.localeCompare(b.label); }).forEach(function (z) {
        var option = new Option(z.label, z.id, false, z.id === zone);
        group.appendChild(option);
      });
      select.appendChild(group);
    });
  }
`;
