/**
 * Sharing a calendar (addendum, "Sharing calendars"): its owner gives people a role on it. The roles, the member
 * resource and the three operations; what each role may see and do is in docs/sharing.md.
 */
import { z } from 'zod';
import { DateTime, Email, ErrorEnvelope, Uuid } from './common';
import * as examples from './examples';
import { op } from './operation';
import { NextPageToken, PageQuery } from './paging';

/** At most this many people share one calendar (its owner aside). */
export const MAX_CALENDAR_MEMBERS = 100;

export const SharedRole = z.enum(['freeBusyReader', 'reader', 'writer']).meta({
  id: 'CalendarSharedRole',
  description: '`freeBusyReader`: busy intervals only (POST /free-busy); `reader`: its events; `writer`: its events, and '
    + 'may create, change and cancel them',
});
export type SharedRole = z.infer<typeof SharedRole>;

/** What a caller may do with a calendar: `owner` for the calendars of their own Spaces. */
export const CalendarRole = z.enum(['owner', 'writer', 'reader', 'freeBusyReader']).meta({
  id: 'CalendarRole',
  description: 'The caller\'s role: `owner` (a calendar of a Space they own), `writer`, `reader` or `freeBusyReader`. '
    + 'Members of an organization are writers of its calendars.',
});
export type CalendarRole = z.infer<typeof CalendarRole>;

const RANK: Record<CalendarRole, number> = { freeBusyReader: 1, reader: 2, writer: 3, owner: 4 };

/** The stronger of two roles (null: none). */
export const strongerRole = (a: CalendarRole | null, b: CalendarRole | null): CalendarRole | null =>
  a === null ? b : b === null ? a : RANK[a] >= RANK[b] ? a : b;

/** Roles that see a calendar's events (titles, attendees, locations): every one but freeBusyReader. */
export const seesEvents = (role: CalendarRole | null): boolean => role !== null && RANK[role] >= RANK.reader;
export const mayWrite = (role: CalendarRole | null): boolean => role !== null && RANK[role] >= RANK.writer;

const memberExample = {
  calendarId: examples.ids.calendar, userId: examples.ids.otherUser, email: 'grace@example.com', name: 'Grace Hopper',
  role: 'reader', createdAt: examples.at.created, updatedAt: examples.at.created,
};

export const CalendarMember = z
  .object({
    calendarId: Uuid,
    userId: Uuid,
    email: z.string(),
    name: z.string(),
    role: SharedRole,
    createdAt: DateTime.describe('When the person was first given a role on the calendar'),
    updatedAt: DateTime.describe('When their role last changed'),
  })
  .meta({ id: 'CalendarMember', examples: [memberExample] });
export type CalendarMember = z.infer<typeof CalendarMember>;

/**
 * A member as the Space stream records it: with the calendar's Space, its owner and who gave the role. Top-level
 * `userId` is the member, so the record is sealed under the member's key too (services/eventstore/sealing.ts).
 */
export const CalendarMemberRecord = CalendarMember.extend({ spaceId: Uuid, calendarOwnerId: Uuid, addedBy: Uuid });
export type CalendarMemberRecord = z.infer<typeof CalendarMemberRecord>;

/** The member as the API shows it. */
export const memberView = ({ calendarId, userId, email, name, role, createdAt, updatedAt }: CalendarMemberRecord): CalendarMember =>
  ({ calendarId, userId, email, name, role, createdAt, updatedAt });

export const AddCalendarMemberBody = z
  .strictObject({ email: Email.describe('The email of a user of this service'), role: SharedRole })
  .meta({ id: 'AddCalendarMemberBody', examples: [{ email: 'grace@example.com', role: 'reader' }] });
export type AddCalendarMemberBody = z.infer<typeof AddCalendarMemberBody>;

export const CalendarMemberParams = z.object({ id: Uuid, userId: Uuid });

const MemberResponse = z.object({ member: CalendarMember }).meta({ id: 'CalendarMemberResponse' });
const MemberList = z
  .object({ members: z.array(CalendarMember), nextPageToken: NextPageToken })
  .meta({ id: 'CalendarMemberList', examples: [{ members: [memberExample], nextPageToken: null }] });

const notFound = {
  description: 'No such calendar the caller can see (`not_found`), or, when adding, no user with that email',
  schema: ErrorEnvelope,
};
const ownerOnly = { description: '`forbidden`: the caller can see the calendar but does not own it', schema: ErrorEnvelope };

export const calendarMemberOperations = [
  op({
    method: 'post', path: '/calendars/{id}/members', tag: 'Calendars', summary: 'Share a calendar with someone',
    description: 'The owner gives a user of this service (by email) a role on the calendar. Adding someone who is already a '
      + 'member sets their role (201 with the member as they now are). The member then lists the calendar in GET /calendars '
      + `with that role. At most ${MAX_CALENDAR_MEMBERS} members per calendar (409 \`too_many_members\`); the owner cannot be `
      + 'a member of their own calendar (409 `already_owner`). An email that belongs to no user is 404, as an unknown calendar is.',
    params: z.object({ id: Uuid }), body: AddCalendarMemberBody,
    responses: {
      201: { description: 'The member', schema: MemberResponse },
      403: ownerOnly, 404: notFound,
      409: { description: '`too_many_members`; `already_owner` (the person is the calendar\'s owner)', schema: ErrorEnvelope },
    },
  }),
  op({
    method: 'get', path: '/calendars/{id}/members', tag: 'Calendars', summary: 'People a calendar is shared with',
    description: 'For the calendar\'s owner: its members ordered by user id (the owner is not listed).',
    params: z.object({ id: Uuid }), query: PageQuery,
    responses: { 200: { description: 'One page of members', schema: MemberList }, 403: ownerOnly, 404: notFound },
  }),
  op({
    method: 'delete', path: '/calendars/{id}/members/{userId}', tag: 'Calendars', summary: 'Stop sharing a calendar with someone',
    description: 'By the owner, or by the member themself (leaving it). Access ends at once: the next request of the former '
      + 'member gets 404 for the calendar and its events, and they get no more of its webhooks or `/sync` rows.',
    params: CalendarMemberParams,
    responses: { 204: { description: 'No longer shared' }, 403: ownerOnly, 404: { description: 'No such calendar or member', schema: ErrorEnvelope } },
  }),
];
