/** What a CalDAV request works with: the caller, the calendars they see, and calendar objects as text. */
import type { UserRecord } from '../../contracts/domain-events';
import type { Event } from '../../contracts/events';
import { objectTexts } from '../../read-api/ical/object-texts';
import { AnswerCache } from '../../read-api/shared/answer-cache';
import { userById } from '../../read-api/profile/users.queries';
import type { AppContext } from '../app-context';
import { ApiError } from '../errors';
import type { Principal } from '../http/principal';
import { writeCalendar, type ObjectTexts } from '../ical';
import { expandedText } from './expand';
import { collectionAt, CollectionReader, type Collection, type DavObject } from './collections';

export interface DavShared {
  app: AppContext;
  reader: CollectionReader;
  texts: ObjectTexts;
  /** REPORT answers by (collection, what was asked), kept while the collection's position holds. */
  answers: AnswerCache;
}

export interface DavContext extends DavShared {
  user: UserRecord;
  principal: Principal;
}

export const davShared = (app: AppContext): DavShared => ({
  app, reader: new CollectionReader(app.readModels), texts: objectTexts(32 * 1024 * 1024), answers: new AnswerCache(500, 64 * 1024 * 1024),
});

export const notFound = () => new ApiError(404, 'not_found', 'Nothing here');

/** A path under another user's name is nobody's for this caller: 404, as over REST. */
export function ownPath(ctx: DavContext, user: string): void {
  if (user !== ctx.user.username) throw notFound();
}

export async function collectionFor(ctx: DavContext, user: string, segment: string): Promise<Collection> {
  ownPath(ctx, user);
  return collectionAt(ctx.app.readModels, ctx.user.id, segment);
}

const eventsOf = (o: DavObject) => [o.series, ...o.rdates].filter((e): e is Event => e !== null);

/**
 * Each object as iCalendar through the shared mapping (services/ical), with the calendar's owner as ORGANIZER, kept by
 * its events' ids and versions (a UID may be in several calendars).
 */
export async function textsOf(
  ctx: DavContext, collection: Collection, objects: DavObject[], expand: { from: number; to: number } | null = null,
): Promise<Map<string, string>> {
  const owner = await userById(ctx.app.readModels, collection.ownerId);
  const organizer = owner ? { name: owner.name ?? null, email: owner.email } : null;
  if (expand) return new Map(objects.map((o) => [o.uid, expandedText(o, expand, organizer)]));
  return new Map(objects.map((o) => [o.uid, ctx.texts(`${eventsOf(o).map((e) => `${e.id}:${e.version}`).join(' ')}|${organizer?.email ?? ''}`, () => writeCalendar(eventsOf(o), { organizer }))]));
}
