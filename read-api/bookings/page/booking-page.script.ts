/**
 * The booking pages' script, served as a file (/book/assets/booking.js: the Content-Security-Policy allows no
 * inline script). Plain browser JavaScript, no framework, in three parts: Intl words for time and zones
 * (script/intl.script.ts), the month picker (script/month.script.ts) and the pages (script/pages.script.ts).
 */
import { BOOKING_HORIZON_DAYS } from '../../../contracts/bookings';
import { intlScript } from './script/intl.script';
import { monthScript } from './script/month.script';
import { pagesScript } from './script/pages.script';
import { primaryZones } from './time-zones';

const start = String.raw`'use strict';
(function () {
  var $ = function (id) { return document.getElementById(id); };
  function status(text) { $('status').textContent = text; }
`;

const end = String.raw`
  var page = document.body.getAttribute('data-page');
  if (page === 'book') bookPage();
  else if (page === 'cancel' || page === 'reschedule') managePage(page);
})();
`;

export const BOOKING_SCRIPT = start + intlScript(primaryZones()) + monthScript(BOOKING_HORIZON_DAYS) + pagesScript + end;
