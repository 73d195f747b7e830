/**
 * The bookings of one schedule arranged for its rules: which live bookings sit on each calendar event (a slot with
 * seats holds several), the event of a type's slot (to join it), and each type's meetings by start (the limits per
 * day and week count meetings: a slot with seats counts once).
 */
import { isLive, type Booking } from '../../contracts/bookings';

/** What the index needs of a booking or of a collective booking's part. */
export type Seated = Pick<Booking, 'id' | 'meetingTypeId' | 'eventId' | 'startsAt' | 'endsAt' | 'status'>;

const slotKey = (typeId: string, startsAt: string, endsAt: string) => `${typeId} ${startsAt} ${endsAt}`;

/** Starts of one type's meetings, sorted, for counting those inside a span. */
class SortedStarts {
  private readonly starts: number[] = [];

  add(start: number): void {
    this.starts.splice(this.firstAtOrAfter(start), 0, start);
  }

  remove(start: number): void {
    const i = this.firstAtOrAfter(start);
    if (this.starts[i] === start) this.starts.splice(i, 1);
  }

  /** Starts in [from, to). */
  count(from: number, to: number): number {
    return this.firstAtOrAfter(to) - this.firstAtOrAfter(from);
  }

  private firstAtOrAfter(start: number): number {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid] < start) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

export class BookingIndex {
  /** Event id -> ids of the live bookings on it. */
  private readonly onEvent = new Map<string, Set<string>>();
  /** Event id -> the slot it stands for, while it has live bookings. */
  private readonly slotOfEvent = new Map<string, { key: string; typeId: string; start: number }>();
  private readonly eventOfSlot = new Map<string, string>();
  private readonly meetingsOfType = new Map<string, SortedStarts>();

  /** Records a booking's change (`before` is what the index held of it). */
  put(before: Seated | undefined, after: Seated): void {
    if (before?.eventId && isLive(before.status)) this.onEvent.get(before.eventId)?.delete(before.id);
    if (after.eventId && isLive(after.status)) {
      const ids = this.onEvent.get(after.eventId) ?? new Set<string>();
      this.onEvent.set(after.eventId, ids.add(after.id));
    }
    if (before?.eventId && before.eventId !== after.eventId) this.refresh(before.eventId, before);
    if (after.eventId) this.refresh(after.eventId, after);
  }

  /** Live bookings on the event: the seats it has given. */
  seatsTaken(eventId: string | null): number {
    return eventId ? this.onEvent.get(eventId)?.size ?? 0 : 0;
  }

  /** The event of the type's slot [startsAt, endsAt) while it has live bookings. */
  eventAt(typeId: string, startsAt: string, endsAt: string): string | undefined {
    return this.eventOfSlot.get(slotKey(typeId, startsAt, endsAt));
  }

  /** The type's meetings starting in [from, to), leaving out the event `except`. */
  meetings(typeId: string, from: number, to: number, except: string | null): number {
    const own = except ? this.slotOfEvent.get(except) : undefined;
    const mine = own && own.typeId === typeId && own.start >= from && own.start < to ? 1 : 0;
    return (this.meetingsOfType.get(typeId)?.count(from, to) ?? 0) - mine;
  }

  private refresh(eventId: string, booking: Seated): void {
    const old = this.slotOfEvent.get(eventId);
    if (old) {
      this.slotOfEvent.delete(eventId);
      if (this.eventOfSlot.get(old.key) === eventId) this.eventOfSlot.delete(old.key);
      this.meetingsOfType.get(old.typeId)?.remove(old.start);
    }
    if (!this.onEvent.get(eventId)?.size) return void this.onEvent.delete(eventId);
    const slot = { key: slotKey(booking.meetingTypeId, booking.startsAt, booking.endsAt), typeId: booking.meetingTypeId, start: Date.parse(booking.startsAt) };
    this.slotOfEvent.set(eventId, slot);
    this.eventOfSlot.set(slot.key, eventId);
    const starts = this.meetingsOfType.get(slot.typeId) ?? new SortedStarts();
    this.meetingsOfType.set(slot.typeId, starts);
    starts.add(slot.start);
  }
}
