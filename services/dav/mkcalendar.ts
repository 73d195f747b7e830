/**
 * MKCALENDAR (RFC 4791 5.3.1): the REST command that makes a calendar (CreateCalendar) in the caller's personal
 * Space, named by the body's displayname, coloured by its calendar-color. Its id derives from the caller and the
 * segment the client chose, so the client's URL finds it (collections.ts). PROPPATCH: no command changes a
 * calendar's name or colour yet, so an update is refused with 403, nothing set.
 */
import { randomUUID } from 'node:crypto';
import { Color } from '../../contracts/spaces';
import { userDecider, userStream } from '../../write-api/accounts/user.decider';
import { scheduleDecider, scheduleStream } from '../../write-api/schedule/schedule.decider';
import { ApiError } from '../errors';
import { requireScope } from './auth';
import { madeCalendarId } from './collections';
import { collectionFor, ownPath, type DavContext } from './context';
import { d } from './multistatus';
import { collectionHref } from './paths';
import { Precondition, type DavReply } from './objects';
import { childElements, clark, firstChild, nameOf, NS, parseXml, textIn } from './xml';

const props = (root: Element | undefined) =>
  root ? childElements(root).flatMap((set) => childElements(firstChild(set, d('prop')) ?? set)).filter((p) => nameOf(p) !== d('prop')) : [];

type Element = ReturnType<typeof parseXml>;

export async function mkcalendar(ctx: DavContext, t: { user: string; segment: string }, body: string): Promise<DavReply> {
  ownPath(ctx, t.user);
  requireScope(ctx.principal, 'calendars:write');
  const exists = await collectionFor(ctx, t.user, t.segment).then(() => true, () => false);
  if (exists) throw new ApiError(405, 'method_not_allowed', 'A collection is already there');
  const asked = body.trim() ? props(parseXml(body)) : [];
  const name = textIn(asked.find((p) => nameOf(p) === d('displayname'))) || t.segment;
  const color = textIn(asked.find((p) => nameOf(p) === clark(NS.apple, 'calendar-color'))).slice(0, 7);
  const user = (await ctx.app.commands.load(userStream(ctx.user.id), userDecider)).state.user!;
  const now = new Date().toISOString();
  const calendar = {
    id: madeCalendarId(ctx.user.id, t.segment), spaceId: user.personalSpaceId, name: name.slice(0, 200),
    color: Color.safeParse(color).success ? color : '#3366ff', isDefault: false, createdAt: now, updatedAt: now, deletedAt: null,
  };
  const result = await ctx.app.commands.handle(scheduleStream(calendar.spaceId), scheduleDecider, { type: 'CreateCalendar', actorId: ctx.user.id, calendar }, {
    userId: ctx.user.id, commandId: randomUUID(), correlationId: randomUUID(), spaceId: calendar.spaceId,
  });
  if (result.position !== null) await ctx.app.watermarks.waitFor(ctx.app.projectionNames, result.position, ctx.app.config.MIN_POSITION_WAIT_MS);
  return { status: 201, headers: { Location: collectionHref(ctx.user.username, t.segment) } };
}

/** 403 `DAV:cannot-modify-protected-property` (RFC 4918 9.2.1) for the whole update: nothing is set. */
export function proppatch(body: string): never {
  const root = parseXml(body);
  if (nameOf(root) !== d('propertyupdate')) throw new ApiError(400, 'invalid_xml', 'A PROPPATCH body is a DAV:propertyupdate');
  const names = props(root).map((p) => p.localName).join(', ');
  throw new Precondition(d('cannot-modify-protected-property'), `Calendar properties (${names}) are changed in the app, not over CalDAV`);
}
