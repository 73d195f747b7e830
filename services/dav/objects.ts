/**
 * GET, PUT and DELETE of calendar objects. A PUT is the import command (ImportEvents) for the one object, a DELETE
 * the REST cancel (CancelEvent) of its events: the same domain events as REST, so webhooks and /sync follow. ETags are
 * the events' versions; If-Match and If-None-Match: * are checked against the write model's state just before.
 */
import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { Event } from '../../contracts/events';
import { eventCommands } from '../../write-api/events/event-commands';
import { importItemsOf } from '../../write-api/calendars/import-items';
import { scheduleDecider, scheduleStream, type ScheduleCommand } from '../../write-api/schedule/schedule.decider';
import { ApiError } from '../errors';
import { readCalendar, type ReadResult } from '../ical';
import { requireScope } from './auth';
import type { Collection, DavObject } from './collections';
import { collectionFor, notFound, textsOf, type DavContext } from './context';
import { preconditionBody } from './multistatus';
import { OBJECT_TYPE } from './properties';
import { clark, NS } from './xml';

type ObjectTarget = { user: string; segment: string; uid: string };
export interface DavReply {
  status: number;
  headers?: Record<string, string>;
  body?: string;
  type?: string;
}

/** 403 naming the CalDAV precondition that failed (RFC 4791 5.3.2.1), with why. */
export class Precondition extends ApiError {
  constructor(readonly element: string, message: string, status = 403) {
    super(status, 'precondition_failed', message);
  }
}

const preconditionFailed = () => new ApiError(412, 'precondition_failed', 'The object changed since you read it (If-Match / If-None-Match)');

async function objectAt(ctx: DavContext, t: ObjectTarget): Promise<{ collection: Collection; object: DavObject | undefined }> {
  const collection = await collectionFor(ctx, t.user, t.segment);
  return { collection, object: (await ctx.reader.state(collection.calendar.id)).objects.get(t.uid) };
}

export async function getObject(ctx: DavContext, t: ObjectTarget, headOnly: boolean): Promise<DavReply> {
  requireScope(ctx.principal, 'events:read');
  const { collection, object } = await objectAt(ctx, t);
  if (!object) throw notFound();
  const text = (await textsOf(ctx, collection, [object])).get(object.uid)!;
  return { status: 200, headers: { ETag: object.etag }, type: OBJECT_TYPE, body: headOnly ? undefined : text };
}

/** If-Match / If-None-Match against the object as it is: 412 when they do not hold. */
function checkConditions(req: Request, object: DavObject | undefined): void {
  const ifMatch = req.get('If-Match');
  const ifNoneMatch = req.get('If-None-Match');
  const tags = (h: string) => h.split(',').map((t) => t.trim().replace(/^W\//, ''));
  if (ifNoneMatch !== undefined && object && (ifNoneMatch.trim() === '*' || tags(ifNoneMatch).includes(object.etag))) throw preconditionFailed();
  if (ifMatch !== undefined && (!object || (ifMatch.trim() !== '*' && !tags(ifMatch).includes(object.etag)))) throw preconditionFailed();
}

function writable(collection: Collection): void {
  if (!collection.writable) throw new ApiError(403, 'forbidden', `You may read ${collection.calendar.name} but not change it`);
}

/** The one calendar object of a PUT body, checked as CalDAV requires (RFC 4791 4.1, 5.3.2.1). */
function oneObject(read: ReadResult, uid: string) {
  const components = read.skipped.filter((s) => / components are not imported/.test(s.reason));
  if (components.length) throw new Precondition(clark(NS.caldav, 'supported-calendar-component'), 'Only VEVENT objects are stored here');
  if (read.objects.length !== 1) {
    const why = read.skipped[0]?.reason ?? 'a calendar object holds exactly one UID';
    throw new Precondition(clark(NS.caldav, 'valid-calendar-object-resource'), `Not one calendar object: ${why}`);
  }
  const [object] = read.objects;
  if (object.uid !== uid) throw new Precondition(clark(NS.caldav, 'no-uid-conflict'), `The object's name must be its UID: ${encodeURIComponent(object.uid)}.ics`);
  const problem = read.skipped.find((s) => s.uid === uid);
  if (problem) throw new Precondition(clark(NS.caldav, 'valid-calendar-data'), `Not stored: ${problem.reason}`);
  return object;
}

const eventsOf = (o: DavObject | undefined) => (o ? [o.series, ...o.rdates].filter((e): e is Event => e !== null) : []);

async function run(ctx: DavContext, spaceId: string, command: ScheduleCommand) {
  const result = await ctx.app.commands.handle(scheduleStream(spaceId), scheduleDecider, command, {
    userId: ctx.user.id, commandId: randomUUID(), correlationId: randomUUID(), spaceId,
  });
  // The next request of the client reads its own write.
  if (result.position !== null) await ctx.app.watermarks.waitFor(ctx.app.projectionNames, result.position, ctx.app.config.MIN_POSITION_WAIT_MS);
  return result;
}

export async function putObject(ctx: DavContext, t: ObjectTarget, req: Request, text: string): Promise<DavReply> {
  const { collection, object } = await objectAt(ctx, t);
  requireScope(ctx.principal, object ? 'events:update' : 'events:create');
  writable(collection);
  checkConditions(req, object);
  const read = readCalendar(text, { defaultZone: ctx.user.timeZone });
  const events = oneObject(read, t.uid).events;
  const calendarId = collection.calendar.id;
  const items = await importItemsOf(eventCommands(ctx.app), calendarId, events, ctx.principal.environment);
  // Events of the object its new text no longer holds (an RDATE taken out) are cancelled with it.
  const kept = new Set(items.map((i) => i.eventId));
  const gone = eventsOf(object).filter((e) => e.icalRecurrenceId !== null && !kept.has(e.id));
  items.push(...gone.map((e) => ({ ...items[0], eventId: e.id, sameAs: null, icalRecurrenceId: e.icalRecurrenceId, cancelled: true })));
  const result = await run(ctx, collection.calendar.spaceId, { type: 'ImportEvents', actorId: ctx.user.id, calendarId, items, now: new Date().toISOString(), reviveCancelled: true });
  const etag = await etagAfter(ctx, calendarId, t.uid, items.length === 1 ? result.events : null);
  return { status: object ? 204 : 201, headers: etag ? { ETag: etag } : {} };
}

/** The object's ETag once written: from the one event decided when it is one event, else read back. */
async function etagAfter(ctx: DavContext, calendarId: string, uid: string, decided: Array<{ data: unknown }> | null): Promise<string | null> {
  const [only] = decided ?? [];
  if (decided?.length === 1 && typeof (only.data as Event).version === 'number') return `"v${(only.data as Event).version}"`;
  return (await ctx.reader.state(calendarId)).objects.get(uid)?.etag ?? null;
}

export async function deleteObject(ctx: DavContext, t: ObjectTarget, req: Request): Promise<DavReply> {
  requireScope(ctx.principal, 'events:delete');
  const { collection, object } = await objectAt(ctx, t);
  if (!object) throw notFound();
  writable(collection);
  checkConditions(req, object);
  for (const e of eventsOf(object)) {
    await run(ctx, collection.calendar.spaceId, { type: 'CancelEvent', actorId: ctx.user.id, eventId: e.id, now: new Date().toISOString() });
  }
  return { status: 204 };
}

export const preconditionReply = (err: Precondition): DavReply => ({ status: err.status, type: 'application/xml; charset=utf-8', body: preconditionBody(err.element) });
