/**
 * Who may do what in a Space schedule: its owner, the members of an organization (a shared Space) and the people
 * its calendars are shared with. Memberships are events of the Space stream, so the rules that read them (a writer
 * creating an event, an admin adding a member) are decided where the calendars and events are.
 */
import {
  MAX_CALENDAR_MEMBERS, mayWrite, seesEvents, strongerRole, type CalendarMemberRecord, type CalendarRole, type SharedRole,
} from '../../contracts/calendar-members';
import { MAX_ORGANIZATION_MEMBERS, ORGANIZATION_CALENDAR_ROLE, type MemberRole, type SpaceMemberRecord } from '../../contracts/organizations';
import type { Space } from '../../contracts/spaces';
import { conflict, forbidden, notFound } from '../../services/errors';

/** The person a command names: a user of the service, found by email (null: nobody has that email). */
export interface Person {
  userId: string;
  email: string;
  name: string;
}

export type MemberCommand =
  | { type: 'ShareCalendar'; actorId: string; calendarId: string; person: Person | null; role: SharedRole; now: string }
  | { type: 'UnshareCalendar'; actorId: string; calendarId: string; userId: string; now: string }
  | { type: 'AddSpaceMember'; actorId: string; person: Person | null; role: MemberRole; now: string };

export type MemberEvent =
  | { type: 'calendar.member.added' | 'calendar.member.removed'; data: CalendarMemberRecord }
  | { type: 'space.member.added'; data: SpaceMemberRecord };

/** What the rules read of the schedule, and what `evolveMembers` keeps. */
export interface MemberView {
  space: Space | null;
  calendars: ReadonlyMap<string, unknown>;
  /** Calendar id -> member id -> the member. */
  calendarMembers: Map<string, Map<string, CalendarMemberRecord>>;
  /** Members and admins of an organization, by user id (its owner is `space.ownerId`). */
  spaceMembers: Map<string, SpaceMemberRecord>;
}

/** The user's role on one calendar of the Space, or null for none (the same rule as read-api/spaces/calendar-access.ts). */
export function calendarRoleOf(view: MemberView, userId: string, calendarId: string): CalendarRole | null {
  if (!view.space || !view.calendars.has(calendarId)) return null;
  if (view.space.ownerId === userId) return 'owner';
  const viaSpace = view.spaceMembers.has(userId) ? ORGANIZATION_CALENDAR_ROLE : null;
  return strongerRole(viaSpace, view.calendarMembers.get(calendarId)?.get(userId)?.role ?? null);
}

/**
 * Refuses a user who may not write on the calendar: 404 `what` for one who cannot see its events (no role, or
 * busy time only), 403 for a reader.
 */
export function requireWriter(view: MemberView, userId: string, calendarId: string, what: string): void {
  const role = calendarRoleOf(view, userId, calendarId);
  if (!seesEvents(role)) throw notFound(what);
  if (!mayWrite(role)) throw forbidden('A reader of this calendar may not change its events');
}

/** The owner, or an admin of an organization: who may add members and calendars. */
export function isAdmin(view: MemberView, userId: string): boolean {
  return view.space !== null && (view.space.ownerId === userId || view.spaceMembers.get(userId)?.role === 'admin');
}

function shareCalendar(view: MemberView, c: Extract<MemberCommand, { type: 'ShareCalendar' }>): MemberEvent[] {
  const space = view.space!;
  const role = calendarRoleOf(view, c.actorId, c.calendarId);
  if (role === null) throw notFound('Calendar');
  if (role !== 'owner') throw forbidden('Only the calendar\'s owner may share it');
  if (!c.person) throw notFound('User');
  if (c.person.userId === space.ownerId) throw conflict('already_owner', 'The owner cannot be a member of their own calendar');
  const members = view.calendarMembers.get(c.calendarId) ?? new Map<string, CalendarMemberRecord>();
  const current = members.get(c.person.userId);
  if (current?.role === c.role) return [];
  if (!current && members.size >= MAX_CALENDAR_MEMBERS) {
    throw conflict('too_many_members', `A calendar is shared with at most ${MAX_CALENDAR_MEMBERS} people`, { limit: MAX_CALENDAR_MEMBERS });
  }
  const member: CalendarMemberRecord = {
    calendarId: c.calendarId, spaceId: space.id, calendarOwnerId: space.ownerId, userId: c.person.userId, email: c.person.email,
    name: c.person.name, role: c.role, addedBy: c.actorId, createdAt: current?.createdAt ?? c.now, updatedAt: c.now,
  };
  return [{ type: 'calendar.member.added', data: member }];
}

function unshareCalendar(view: MemberView, c: Extract<MemberCommand, { type: 'UnshareCalendar' }>): MemberEvent[] {
  const role = calendarRoleOf(view, c.actorId, c.calendarId);
  if (role === null) throw notFound('Calendar');
  if (role !== 'owner' && c.actorId !== c.userId) throw forbidden('Only the calendar\'s owner may take someone\'s role away');
  const current = view.calendarMembers.get(c.calendarId)?.get(c.userId);
  if (!current) throw notFound('Member');
  return [{ type: 'calendar.member.removed', data: { ...current, updatedAt: c.now } }];
}

function addSpaceMember(view: MemberView, c: Extract<MemberCommand, { type: 'AddSpaceMember' }>): MemberEvent[] {
  const space = view.space;
  const belongs = space !== null && (space.ownerId === c.actorId || view.spaceMembers.has(c.actorId));
  if (!space || space.kind !== 'shared' || !belongs) throw notFound('Organization');
  if (!isAdmin(view, c.actorId)) throw forbidden('Only the owner and admins of an organization may add members');
  if (!c.person) throw notFound('User');
  if (c.person.userId === space.ownerId) throw conflict('already_owner', 'The owner keeps their role');
  const current = view.spaceMembers.get(c.person.userId);
  if (current?.role === c.role) return [];
  if (!current && view.spaceMembers.size + 1 >= MAX_ORGANIZATION_MEMBERS) {
    throw conflict('too_many_members', `An organization has at most ${MAX_ORGANIZATION_MEMBERS} members`, { limit: MAX_ORGANIZATION_MEMBERS });
  }
  const member: SpaceMemberRecord = {
    spaceId: space.id, userId: c.person.userId, email: c.person.email, name: c.person.name, role: c.role, addedBy: c.actorId,
    createdAt: current?.createdAt ?? c.now,
  };
  return [{ type: 'space.member.added', data: member }];
}

export function decideMembers(command: MemberCommand, view: MemberView): MemberEvent[] {
  if (!view.space) throw notFound(command.type === 'AddSpaceMember' ? 'Organization' : 'Calendar');
  switch (command.type) {
    case 'ShareCalendar':
      return shareCalendar(view, command);
    case 'UnshareCalendar':
      return unshareCalendar(view, command);
    case 'AddSpaceMember':
      return addSpaceMember(view, command);
  }
}

export function evolveMembers(view: MemberView, event: MemberEvent): void {
  switch (event.type) {
    case 'calendar.member.added': {
      const members = view.calendarMembers.get(event.data.calendarId) ?? new Map<string, CalendarMemberRecord>();
      members.set(event.data.userId, event.data);
      view.calendarMembers.set(event.data.calendarId, members);
      return;
    }
    case 'calendar.member.removed':
      view.calendarMembers.get(event.data.calendarId)?.delete(event.data.userId);
      return;
    case 'space.member.added':
      view.spaceMembers.set(event.data.userId, event.data);
  }
}
