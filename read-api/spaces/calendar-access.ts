/**
 * Sharing is enforced here: the one answer to "which calendars may this user see, with which role", read from the
 * schedule projection's memberships (Spaces owned and organizations) and calendar members. GET /calendars, every
 * query that lists events (GET /events, GET /events/{id}, /sync, /me/bootstrap), webhook audiences and free/busy of
 * other people ask it; the rule itself is the one the schedule decider applies (write-api/schedule/members.rules.ts).
 * A role taken away is gone from the read model with the event that took it, so the next request sees it gone.
 */
import { seesEvents, strongerRole, type CalendarRole, type SharedRole } from '../../contracts/calendar-members';
import { ORGANIZATION_CALENDAR_ROLE } from '../../contracts/organizations';
import type { Calendar } from '../../contracts/spaces';
import { publicView, type ReadModels } from '../../projections/read-models';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { Doc } from '../../services/readstore/read-store.port';

/** Calendars shared with one user that are read, at most (a user sees at most this many shared calendars). */
export const MAX_SHARED_CALENDARS = 1000;

export interface CalendarAccess {
  calendar: Calendar;
  role: CalendarRole;
  /** The owner of the calendar's Space: whose busy time its events are. */
  ownerId: string;
  /** Seen as a member of its Space (the caller's own, or an organization's), rather than only shared with them. */
  viaSpace: boolean;
}

type MembershipDoc = Doc & { spaceId: string; userId: string; ownerId?: string; role: 'owner' | 'admin' | 'member' };
type MemberDoc = Doc & { calendarId: string; spaceId: string; calendarOwnerId: string; userId: string; role: SharedRole };

/** The role a Space membership gives on each of the Space's calendars. */
const roleOfMembership = (m: Pick<MembershipDoc, 'role'>): CalendarRole => (m.role === 'owner' ? 'owner' : ORGANIZATION_CALENDAR_ROLE);

const byCreation = (a: CalendarAccess, b: CalendarAccess) =>
  a.calendar.createdAt.localeCompare(b.calendar.createdAt) || a.calendar.id.localeCompare(b.calendar.id);

/** Every live calendar the user can see, with their role on it, oldest first. */
export async function calendarAccessOf(models: ReadModels, userId: string): Promise<CalendarAccess[]> {
  const schedule = await models.docs(SCHEDULE);
  const [memberships, shares] = await Promise.all([
    schedule<MembershipDoc>('memberships').find({ userId }),
    schedule<MemberDoc>('calendarMembers').find({ userId, deletedAt: null }, { limit: MAX_SHARED_CALENDARS }),
  ]);
  const spaces = new Map(memberships.map((m) => [m.spaceId, m]));
  const shared = new Map(shares.map((m) => [m.calendarId, m]));
  const [inSpaces, sharedDocs] = await Promise.all([
    spaces.size ? schedule('calendars').find({ spaceId: { $in: [...spaces.keys()] } }) : [],
    shared.size ? schedule('calendars').find({ id: { $in: [...shared.keys()] } }) : [],
  ]);
  const found = new Map<string, CalendarAccess>();
  for (const doc of [...inSpaces, ...sharedDocs]) {
    const calendar = publicView<Calendar>(doc);
    if (calendar.deletedAt || found.has(calendar.id)) continue;
    const membership = spaces.get(calendar.spaceId);
    const share = shared.get(calendar.id);
    const role = strongerRole(membership ? roleOfMembership(membership) : null, share?.role ?? null);
    const ownerId = membership?.ownerId ?? share?.calendarOwnerId;
    if (role && ownerId) found.set(calendar.id, { calendar, role, ownerId, viaSpace: !!membership });
  }
  return [...found.values()].sort(byCreation);
}

/** The user's role on one calendar (null: none), with two reads. */
export async function calendarRoleOf(models: ReadModels, userId: string, calendar: { id: string; spaceId: string }): Promise<CalendarRole | null> {
  const schedule = await models.docs(SCHEDULE);
  const [membership, share] = await Promise.all([
    schedule<MembershipDoc>('memberships').get(`${calendar.spaceId}:${userId}`),
    schedule<MemberDoc>('calendarMembers').get(`${calendar.id}:${userId}`),
  ]);
  const shareRole = share && !share.deletedAt ? share.role : null;
  return strongerRole(membership ? roleOfMembership(membership) : null, shareRole);
}

/**
 * Who sees the events of a calendar (what its webhooks are delivered to): the members of its Space and the people
 * it is shared with as reader or writer, never a freeBusyReader.
 */
export async function eventAudienceOf(models: ReadModels, spaceId: string, calendarId: string | undefined): Promise<string[]> {
  const schedule = await models.docs(SCHEDULE);
  const [memberships, shares] = await Promise.all([
    schedule<MembershipDoc>('memberships').find({ spaceId }),
    calendarId ? schedule<MemberDoc>('calendarMembers').find({ calendarId, deletedAt: null }) : [],
  ]);
  const readers = shares.filter((m) => seesEvents(m.role));
  return [...new Set([...memberships, ...readers].map((m) => m.userId))];
}

/** Ids of the calendars whose events the user sees (every role but freeBusyReader). */
export const eventCalendarIds = (access: readonly CalendarAccess[]): string[] =>
  access.filter((a) => seesEvents(a.role)).map((a) => a.calendar.id);
