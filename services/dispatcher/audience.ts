/**
 * What the catalogue's producers say about a domain event, made concrete for its consumers (webhook deliveries,
 * automations): the users in its audience, and the payload a receiver gets.
 */
import type { Audience, Produced } from '../../contracts/webhook-catalogue';
import type { ReadModels } from '../../projections/read-models';
import { SCHEDULE } from '../../projections/schedule.projection';
import { eventAudienceOf } from '../../read-api/spaces/calendar-access';
import type { Watermarks } from '../../projections/watermarks';
import type { Config } from '../config';
import type { RecordedEvent } from '../eventstore/event-store.port';

/** What finding an audience reads (the app context has it all). */
export interface AudienceSources {
  watermarks: Watermarks;
  readModels: ReadModels;
  config: Pick<Config, 'MIN_POSITION_WAIT_MS'>;
}

export interface DeliveredPayload {
  id: string;
  type: string;
  createdAt: string;
  data: unknown;
  previous?: unknown;
}

/**
 * The users an audience names. A Space's members, and the people a calendar is shared with, come from the schedule
 * projection, which must have reached this event: while it lags this throws, so the consumer leaves the message
 * uncommitted and the bus hands it again later (a delivery or a run waits for the read model, and is never dropped).
 * They are the members when the event is handled: a role taken away before then gets nothing more.
 */
export async function audienceMembers(app: AudienceSources, audience: Audience, position: number): Promise<string[]> {
  if ('userIds' in audience) return [...new Set(audience.userIds)];
  if (!(await app.watermarks.waitFor([SCHEDULE], position, app.config.MIN_POSITION_WAIT_MS))) {
    throw new Error(`the ${SCHEDULE} projection has not reached position ${position} yet; the Space's members are not known`);
  }
  return eventAudienceOf(app.readModels, audience.spaceId, audience.calendarId);
}

/** The body a webhook of `type` delivers for `event`: its `id` is the domain event id. */
export const deliveredPayload = (event: RecordedEvent, type: string, produced: Produced): DeliveredPayload => ({
  id: event.id,
  type,
  createdAt: event.metadata.occurredAt,
  data: produced.data,
  ...(produced.previous === undefined ? {} : { previous: produced.previous }),
});
