import type { z } from 'zod';
import type { Booking, GuestBooking, ListBookingsQuery, MeetingType } from '../../contracts/bookings';
import type { UserRecord } from '../../contracts/domain-events';
import type { PageQuery } from '../../contracts/paging';
import { BOOKINGS } from '../../projections/bookings.projection';
import { publicView, type ReadModels } from '../../projections/read-models';
import { notFound } from '../../services/errors';
import type { Doc, Filter } from '../../services/readstore/read-store.port';
import { pageOf } from '../shared/paging';
import { userById, userByUsername } from '../profile/users.queries';

const docs = async (models: ReadModels, collection: 'meetingTypes' | 'bookings') => (await models.docs(BOOKINGS))(collection);

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
  host: UserRecord;
  type: MeetingType;
}

/** A bookable type by its public address: the host's username and the type's slug, enabled. Else 404. */
export async function publicType(models: ReadModels, username: string, slug: string): Promise<PublicType> {
  const host = await userByUsername(models, username.toLowerCase());
  const [doc] = host ? await (await docs(models, 'meetingTypes')).find({ ownerId: host.id, slug, deletedAt: null }, { limit: 1 }) : [];
  if (!host || !doc || doc.enabled !== true) throw notFound('Meeting type');
  return { host, type: publicView<MeetingType>(doc) };
}

export const publicTypeView = ({ host, type }: PublicType) => ({
  host: { name: host.name, username: host.username, timeZone: host.timeZone },
  meetingType: { name: type.name, slug: type.slug, durationMinutes: type.durationMinutes, description: type.description, location: type.location },
});

export async function bookingsPage(models: ReadModels, hostId: string, query: z.infer<typeof ListBookingsQuery>) {
  const filter: Filter = { hostId };
  if (query.status) filter.status = query.status;
  if (query.from) filter._startMs = { $gte: Date.parse(query.from) };
  const page = await pageOf(await docs(models, 'bookings'), filter, '_sortKey', query);
  return { bookings: page.items.map((d) => publicView<Booking>(d)), nextPageToken: page.nextPageToken };
}

/** A booking of the host's; someone else's is absent. */
export async function hostBooking(models: ReadModels, hostId: string, id: string): Promise<Booking | null> {
  const doc = await (await docs(models, 'bookings')).get(id);
  return doc && doc.hostId === hostId ? publicView<Booking>(doc) : null;
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

/** A booking as its guest sees it: no internal ids, with the host's public name and the type. */
export function guestBookingOf(booking: Booking, of: PublicType): GuestBooking {
  const { id, startsAt, endsAt, timeZone, guest, note, location, status, cancelledBy, createdAt, updatedAt, version } = booking;
  return { id, startsAt, endsAt, timeZone, guest, note, location, status, cancelledBy, createdAt, updatedAt, version, ...publicTypeView(of) };
}

export async function guestView(models: ReadModels, booking: Booking): Promise<GuestBooking> {
  const [host, type] = await Promise.all([userById(models, booking.hostId), meetingTypeOf(models, booking)]);
  if (!host || !type) throw notFound('Booking');
  return guestBookingOf(booking, { host, type });
}
