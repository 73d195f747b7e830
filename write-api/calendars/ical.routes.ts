/**
 * iCalendar in: a calendar's feed address (issue, replace, revoke) and importing a .ics file. The mapping is
 * services/ical; the import is one command of the Space schedule (import.rules.ts).
 */
import { randomBytes } from 'node:crypto';
import { findOperation } from '../../contracts/operation';
import { icalOperations } from '../../contracts/ical';
import type { Event } from '../../contracts/events';
import { spaceIdsOf } from '../../read-api/spaces/spaces.queries';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import type { Input } from '../../services/http/route';
import { route } from '../../services/http/route';
import { readCalendarOffThread, type Skipped } from '../../services/ical';
import { eventCommands } from '../events/event-commands';
import { scheduleDecider, scheduleStream } from '../schedule/schedule.decider';
import { feedDecider, feedStream, feedTokenHash } from './feed.decider';
import { importItemsOf } from './import-items';
import { targetOf } from './import.rules';

type IdParams = { id: string };
type AnyInput = Input<unknown, unknown, IdParams>;

/** `cf_` and 256 random bits: the whole credential of a feed address. */
const newFeedToken = () => `cf_${randomBytes(32).toString('base64url')}`;

export function icalWriteRoutes(app: AppContext) {
  const events = eventCommands(app);

  /** The calendar's Space, when the calendar is in one of the caller's Spaces; else 404. */
  const ownCalendar = async (input: AnyInput) => {
    const calendarId = input.params.id;
    const spaceId = await events.spaceOfCalendar(calendarId);
    if (!spaceId || !(await spaceIdsOf(app.readModels, input.principal!.userId)).includes(spaceId)) throw notFound('Calendar');
    return { calendarId, spaceId };
  };

  const context = (input: AnyInput, spaceId: string) => ({
    userId: input.principal!.userId, commandId: input.commandId, correlationId: input.requestId, spaceId,
  });

  return [
    route<unknown, unknown, IdParams>(findOperation(icalOperations, 'post', '/calendars/{id}/feed'), async (input) => {
      const { calendarId, spaceId } = await ownCalendar(input);
      const token = newFeedToken();
      const now = new Date().toISOString();
      const result = await app.commands.handle(feedStream(calendarId), feedDecider, {
        type: 'IssueFeed', calendarId, spaceId, tokenHash: feedTokenHash(token), now,
      }, context(input, spaceId));
      const url = new URL(`/ical/${token}.ics`, `${app.config.PUBLIC_URL ?? input.issuer}/`).toString();
      const webcalUrl = url.replace(/^https?:/, 'webcal:');
      return { status: 201, body: { feed: { url, webcalUrl, createdAt: now } }, position: result.position };
    }),

    route<unknown, unknown, IdParams>(findOperation(icalOperations, 'delete', '/calendars/{id}/feed'), async (input) => {
      const { calendarId, spaceId } = await ownCalendar(input);
      const result = await app.commands.handle(feedStream(calendarId), feedDecider, {
        type: 'RevokeFeed', calendarId, spaceId, now: new Date().toISOString(),
      }, context(input, spaceId));
      return { status: 204, position: result.position };
    }),

    route<string, unknown, IdParams>(findOperation(icalOperations, 'post', '/calendars/{id}/import'), async (input) => {
      const { calendarId, spaceId } = await ownCalendar(input);
      const me = await events.profile(input.principal!.userId);
      const read = await readCalendarOffThread(input.body, { defaultZone: me.timeZone });
      const skipped: Skipped[] = [...read.skipped];
      const items = await importItemsOf(events, calendarId, read.objects.flatMap((o) => o.events), input.principal!.environment);
      const now = new Date().toISOString();
      const result = items.length
        ? await app.commands.handle(scheduleStream(spaceId), scheduleDecider, {
          type: 'ImportEvents', actorId: me.id, calendarId, items, now,
        }, context(input, spaceId))
        : { events: [], position: null };
      const created = new Set(result.events.filter((e) => e.type === 'event.created').map((e) => (e.data as Event).id));
      const changed = new Set(result.events.filter((e) => e.type !== 'event.created').map((e) => (e.data as Event).id));
      const { state } = await app.commands.load(scheduleStream(spaceId), scheduleDecider);
      for (const item of items) {
        const { id } = targetOf(item, state, calendarId);
        if (created.has(id) || changed.has(id)) continue;
        const here = state.events.get(id);
        if (!here) skipped.push({ uid: item.icalUid, reason: 'cancelled in the file (STATUS:CANCELLED) and not in this calendar' });
        else if (here.status === 'cancelled' && !item.cancelled) {
          skipped.push({ uid: item.icalUid, reason: 'cancelled in this calendar: an import does not bring it back' });
        }
      }
      return { status: 200, body: { imported: created.size, updated: changed.size, skipped }, position: result.position };
    }),
  ];
}
