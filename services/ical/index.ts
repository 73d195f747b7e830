/**
 * The one mapping between our events and iCalendar (RFC 5545), used by the feed, the import, CalDAV and the guest
 * mail. Writing: `writeCalendar` / `calendarPieces` (VCALENDAR with VTIMEZONEs), `veventsOf` (one UID's VEVENTs).
 * Reading: `readCalendar` (per UID, with what was skipped and why). Identity: `uidOf`, `eventIdForUid`.
 * The model and the decisions: docs/icalendar.md.
 */
export { ICAL_LIMITS, readCalendar, type ReadEvent, type ReadFields, type ReadOptions, type ReadResult, type Skipped } from './read';
export { readCalendarOffThread } from './read-thread';
export { candidateIds, eventIdForUid, ownEventIdOf, uidOf, UID_DOMAIN } from './uid';
export { calendarPieces, normalRule, objectsOf, veventsOf, writeCalendar, type CalendarOptions, type ObjectTexts, type WritableEvent, type WriteOptions } from './write';
export { writeFreeBusy } from './free-busy';
export { ianaZoneOf, vtimezoneOf } from './zones';
