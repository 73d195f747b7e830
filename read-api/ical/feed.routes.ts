/**
 * GET /ical/{token}.ics: the calendar behind a feed address as one VCALENDAR. The ETag names the address (its
 * generation), the Space's last change (its schedule documents' highest position), the first day listed and the
 * writer's version, so it moves whenever the text could; If-None-Match with it answers 304 before any event is read.
 */
import type { Calendar } from '../../contracts/spaces';
import { FEED_MAX_EVENTS, FEED_PAST_DAYS, icalOperations } from '../../contracts/ical';
import type { Event } from '../../contracts/events';
import { findOperation } from '../../contracts/operation';
import { ACCOUNTS } from '../../projections/accounts.projection';
import { ICAL_FEEDS } from '../../projections/ical-feeds.projection';
import { publicView } from '../../projections/read-models';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { calendarPieces } from '../../services/ical';
import { DAY_MS } from '../../services/time/civil';
import { OPEN_END } from '../../services/time/recurrence';
import { overlapFilters } from '../../projections/event-span';
import type { Doc } from '../../services/readstore/read-store.port';
import { feedTokenHash } from '../../write-api/calendars/feed.decider';
import { AnswerCache } from '../shared/answer-cache';
import { objectTexts } from './object-texts';

/** Bump when the text written for the same events changes. */
const WRITER_VERSION = 1;

interface FeedDoc {
  calendarId: string;
  spaceId: string;
  generation: number;
  revokedAt: string | null;
}

export function icalReadRoutes(app: AppContext) {
  const schedule = async () => app.readModels.docs(SCHEDULE);
  // Built feeds by token hash, kept while their ETag holds: a calendar app polls the same unchanged feed again and again.
  const built = new AnswerCache(200, 256 * 1024 * 1024);
  const texts = objectTexts();

  /** The highest position of the Space's schedule documents: its events' and calendars' last change. */
  async function spacePosition(spaceId: string): Promise<number> {
    const docs = await schedule();
    const [event] = await docs('events').find({ spaceId }, { sort: [['_pos', -1]], limit: 1 });
    const [calendar] = await docs('calendars').find({ spaceId }, { sort: [['_pos', -1]], limit: 1 });
    return Math.max(Number(event?._pos ?? 0), Number(calendar?._pos ?? 0));
  }

  return [
    route<unknown, unknown, { token: string }>(findOperation(icalOperations, 'get', '/ical/{token}.ics'), async (input) => {
      const tokenHash = feedTokenHash(input.params.token);
      const feed = (await (await app.readModels.docs(ICAL_FEEDS))('feeds').get(tokenHash)) as FeedDoc | null;
      if (!feed || feed.revokedAt !== null) throw notFound('Feed');
      const from = Math.floor(Date.now() / DAY_MS) * DAY_MS - FEED_PAST_DAYS * DAY_MS;
      const etag = `"f${feed.generation}-${await spacePosition(feed.spaceId)}-${from / DAY_MS}-w${WRITER_VERSION}"`;
      const headers = { ETag: etag, 'Cache-Control': 'private, max-age=0, must-revalidate' };
      const asked = input.header('If-None-Match');
      // If-None-Match compares weakly (RFC 9110 13.1.2): `W/"…"` matches too.
      if (asked && asked.split(',').some((tag) => [etag, `W/${etag}`, '*'].includes(tag.trim()))) return { status: 304, headers };
      const type = 'text/calendar; charset=utf-8';
      const cached = built.get(tokenHash, etag);
      if (cached) return { status: 200, headers, text: { type, body: cached } };

      const calendarDoc = await (await schedule())('calendars').get(feed.calendarId);
      if (!calendarDoc) throw notFound('Feed');
      const calendar = publicView<Calendar>(calendarDoc);
      const space = await (await schedule())('spaces').get(feed.spaceId);
      const owner = space ? await (await app.readModels.docs(ACCOUNTS))('users').get(space.ownerId as string) : null;
      const stored = (await schedule())<Doc & Event>('events');
      const live = { calendarId: feed.calendarId, deletedAt: null };
      const pages = await Promise.all(overlapFilters(from, OPEN_END).map((f) => stored.find({ ...live, ...f }, { limit: FEED_MAX_EVENTS + 1 })));
      const events = pages
        .flat()
        // The stored documents as they are (read-only): the writer reads only the event's own fields.
        .map((d) => d as unknown as Event)
        .sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.id.localeCompare(b.id))
        .slice(0, FEED_MAX_EVENTS);
      const organizer = owner ? { name: (owner.name as string | undefined) ?? null, email: owner.email as string } : null;
      const body = Buffer.from([...calendarPieces(events, { name: calendar.name, organizer }, texts)].join(''));
      built.set(tokenHash, etag, body);
      return { status: 200, headers, text: { type, body } };
    }),
  ];
}
