/** The WebDAV and CalDAV properties of each kind of resource under /dav/ (what PROPFIND answers). */
import type { UserRecord } from '../../contracts/domain-events';
import type { Collection, DavObject } from './collections';
import { c, d, type PropValue, type Props } from './multistatus';
import { DAV_ROOT, homeHref, principalHref } from './paths';
import { clark, NS, x } from './xml';

export const OBJECT_TYPE = 'text/calendar; charset=utf-8; component=VEVENT';
/** Sync tokens are log positions (RFC 6578: a URI). */
export const SYNC_TOKEN_PREFIX = 'urn:calendar-service:sync:';
export const syncTokenOf = (position: number) => `${SYNC_TOKEN_PREFIX}${position}`;

const href = (h: string): PropValue => [x(d('href'), h)];
const privileges = (names: string[]): PropValue => names.map((n) => x(d('privilege'), x(d(n))));
const READ = ['read', 'read-current-user-privilege-set'];
const WRITE = ['write', 'write-content', 'bind', 'unbind'];

const REPORTS = [c('calendar-query'), c('calendar-multiget'), d('sync-collection'), c('free-busy-query')];

function common(user: UserRecord): Props {
  return new Map<string, PropValue>([
    [d('current-user-principal'), href(principalHref(user.username))],
    [d('principal-collection-set'), href(`${DAV_ROOT}principals/`)],
  ]);
}

export function rootProps(user: UserRecord): Props {
  const props = common(user);
  props.set(d('resourcetype'), [x(d('collection'))]);
  return props;
}

export function principalProps(user: UserRecord): Props {
  const props = common(user);
  props.set(d('resourcetype'), [x(d('principal'))]);
  props.set(d('displayname'), [user.name]);
  props.set(d('principal-URL'), href(principalHref(user.username)));
  props.set(c('calendar-home-set'), href(homeHref(user.username)));
  props.set(c('calendar-user-address-set'), href(`mailto:${user.email}`));
  return props;
}

export function homeProps(user: UserRecord): Props {
  const props = common(user);
  props.set(d('resourcetype'), [x(d('collection'))]);
  props.set(d('displayname'), [`${user.name}: calendars`]);
  props.set(d('owner'), href(principalHref(user.username)));
  props.set(d('current-user-privilege-set'), privileges([...READ, 'bind']));
  return props;
}

export function collectionProps(user: UserRecord, collection: Collection, position: number): Props {
  const props = common(user);
  const token = syncTokenOf(position);
  props.set(d('resourcetype'), [x(d('collection')), x(c('calendar'))]);
  props.set(d('displayname'), [collection.calendar.name]);
  props.set(clark(NS.apple, 'calendar-color'), [collection.calendar.color]);
  props.set(clark(NS.cs, 'getctag'), [token]);
  props.set(d('sync-token'), [token]);
  props.set(d('getetag'), [`"${position}"`]);
  props.set(c('supported-calendar-component-set'), [{ name: c('comp'), attrs: { name: 'VEVENT' } }]);
  props.set(c('supported-calendar-data'), [{ name: c('calendar-data'), attrs: { 'content-type': 'text/calendar', version: '2.0' } }]);
  props.set(d('supported-report-set'), REPORTS.map((r) => x(d('supported-report'), x(d('report'), x(r)))));
  props.set(d('current-user-privilege-set'), privileges(collection.writable ? [...READ, ...WRITE] : READ));
  return props;
}

export function objectProps(object: DavObject, writable: boolean): Props {
  return new Map<string, PropValue>([
    [d('resourcetype'), []],
    [d('getetag'), [object.etag]],
    [d('getcontenttype'), [OBJECT_TYPE]],
    [d('current-user-privilege-set'), privileges(writable ? [...READ, 'write', 'write-content'] : READ)],
  ]);
}
