import type { z } from 'zod';
import type { Booking, GuestBooking, ListBookingsQuery, MeetingType } from '../../contracts/bookings';
import type { UserRecord } from '../../contracts/domain-events';
import type { PageQuery } from '../../contracts/paging';
import { BOOKINGS, hostBookingId } from '../../projections/bookings.projection';
import { publicView, type ReadModels } from '../../projections/read-models';
import { notFound } from '../../services/errors';
import type { Doc, Filter } from '../../services/readstore/read-store.port';
import { pageOf } from '../shared/paging';
import { userById, userByUsername } from '../profile/users.queries';
import { currentHosts } from './team-hosts';

const docs = async (models: ReadModels, collection: 'meetingTypes' | 'bookings' | 'hostBookings') => (await models.docs(BOOKINGS))(collection);

export async function meetingTypesPage(models: ReadModels, ownerId: string, query: PageQuery) {
  const page = await pageOf(await docs(models, 'meetingTypes'), { ownerId, deletedAt: null }, '_sortKey', query);
  return { meetingTypes: page.items.map((d) => publicView<MeetingType>(d)), nextPageToken: page.nextPageToken };
}

export async function ownMeetingType(models: ReadModels, ownerId: string, id: string): Promise<MeetingType | null> {
  const doc = await (await docs(models, 'meetingTypes')).get(id);
  return doc && doc.ownerId === ownerId && doc.deletedAt === null ? publicView<MeetingType>(doc) : null;
}

export const isBooked = async (models: ReadModels, meetingTypeId: string) =>
  (await (await docs(models, 'bookings')).count({ meetingTypeId })) > 0;

export interface PublicType {
  /** The type's owner (the page's address). */
  host: UserRecord;
  type: MeetingType;
  /** Who hosts its meetings now (team-hosts.ts). */
  hosts: UserRecord[];
}

async function usersOf(models: ReadModels, ids: readonly string[]): Promise<UserRecord[]> {
  const users = await Promise.all(ids.map((id) => userById(models, id)));
  return users.filter((u): u is UserRecord => u !== null);
}

/** A bookable type by its public address: the host's username and the type's slug, enabled, with a host. Else 404. */
export async function publicType(models: ReadModels, username: string, slug: string): Promise<PublicType> {
  const host = await userByUsername(models, username.toLowerCase());
  const [doc] = host ? await (await docs(models, 'meetingTypes')).find({ ownerId: host.id, slug, deletedAt: null }, { limit: 1 }) : [];
  if (!host || !doc || doc.enabled !== true) throw notFound('Meeting type');
  const type = publicView<MeetingType>(doc);
  const hosts = await usersOf(models, await currentHosts(models, type));
  if (hosts.length === 0) throw notFound('Meeting type');
  return { host, type, hosts };
}

const publicHost = (user: UserRecord) => ({ name: user.name, username: user.username, timeZone: user.timeZone });

const publicTypeInfo = (type: MeetingType) => ({
  name: type.name, slug: type.slug, durationMinutes: type.durationMinutes, durations: type.durations, seats: type.seats,
  requiresConfirmation: type.requiresConfirmation, assignment: type.assignment, description: type.description, location: type.location,
});

export const publicTypeView = ({ host, type, hosts }: PublicType) => ({
  host: publicHost(host), hosts: hosts.map(publicHost), meetingType: publicTypeInfo(type),
});

/** The bookings the caller hosts or owns the type of, each with the caller's own event. */
export async function bookingsPage(models: ReadModels, viewerId: string, query: z.infer<typeof ListBookingsQuery>) {
  const filter: Filter = { _viewerId: viewerId };
  if (query.status) filter.status = query.status;
  if (query.from) filter._startMs = { $gte: Date.parse(query.from) };
  const page = await pageOf(await docs(models, 'hostBookings'), filter, '_sortKey', query);
  return { bookings: page.items.map((d) => publicView<Booking>(d)), nextPageToken: page.nextPageToken };
}

/** A booking the caller hosts or owns the type of, as they see it; anyone else's is absent. */
export async function hostBooking(models: ReadModels, viewerId: string, id: string): Promise<Booking | null> {
  const doc = await (await docs(models, 'hostBookings')).get(hostBookingId(viewerId, id));
  return doc ? publicView<Booking>(doc) : null;
}

export interface StoredBooking {
  booking: Booking;
  tokenHash: string | null;
}

/** A booking whoever hosts it, with its token hash: for the guest's requests and the write side. */
export async function storedBooking(models: ReadModels, id: string): Promise<StoredBooking | null> {
  const doc = await (await docs(models, 'bookings')).get(id);
  return doc ? { booking: publicView<Booking>(doc), tokenHash: (doc as Doc)._tokenHash as string | null } : null;
}

/** The type a booking was made for, deleted or not (its rules still apply to moving it). */
export async function meetingTypeOf(models: ReadModels, booking: Booking): Promise<MeetingType | null> {
  const doc = await (await docs(models, 'meetingTypes')).get(booking.meetingTypeId);
  return doc ? publicView<MeetingType>(doc) : null;
}

/** A booking as its guest sees it: no internal ids, with its hosts' public names and the type. */
export function guestBookingOf(booking: Booking, type: MeetingType, hosts: readonly UserRecord[]): GuestBooking {
  const { id, startsAt, endsAt, timeZone, guest, note, location, status, cancelledBy, createdAt, updatedAt, version } = booking;
  const host = hosts.find((h) => h.id === booking.hostId) ?? hosts[0];
  return {
    id, startsAt, endsAt, timeZone, guest, note, location, status, cancelledBy, createdAt, updatedAt, version,
    host: publicHost(host), hosts: hosts.map(publicHost), meetingType: publicTypeInfo(type),
  };
}

export async function guestView(models: ReadModels, booking: Booking): Promise<GuestBooking> {
  const [hosts, type] = await Promise.all([usersOf(models, booking.hostIds), meetingTypeOf(models, booking)]);
  if (hosts.length === 0 || !type) throw notFound('Booking');
  return guestBookingOf(booking, type, hosts);
}
