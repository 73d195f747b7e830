/**
 * A person's meeting types: a collection per owner (`meeting-types-<userId>`), so slugs are unique per owner inside
 * one stream (two concurrent creates with one slug: one wins) and one person keeps at most MAX_MEETING_TYPES.
 */
import { lengthsOf } from '../../contracts/booking-options';
import { MAX_MEETING_TYPES, type MeetingType } from '../../contracts/bookings';
import type { Decider } from '../../services/commands/decider';
import { conflict } from '../../services/errors';
import { collectionDecider, type CollectionCommand, type CollectionEvent, type CollectionState } from '../shared/collection.decider';

export type MeetingTypeFields = Omit<MeetingType, 'id' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'version'>;
export type MeetingTypeChanges = Partial<Omit<MeetingTypeFields, 'ownerId'>>;

type Command = CollectionCommand<MeetingTypeFields, MeetingTypeChanges>;
type State = CollectionState<MeetingType>;

const collection = collectionDecider<'meeting_type', MeetingType, MeetingTypeFields, MeetingTypeChanges>({
  name: 'meeting_type',
  what: 'Meeting type',
  limit: MAX_MEETING_TYPES,
  limitCode: 'meeting_type_limit_reached',
  create: (id, fields, now) => ({ id, ...fields, createdAt: now, updatedAt: now, deletedAt: null, version: 1 }),
});

function requireFreeSlug(command: Command, state: State): void {
  const slug = command.type === 'Create' ? command.fields.slug : command.type === 'Update' ? command.changes.slug : undefined;
  if (slug === undefined) return;
  for (const type of state.items.values()) {
    if (type.slug === slug && type.id !== command.id) throw conflict('slug_taken', `You already have a meeting type with the slug "${slug}"`);
  }
}

/** The fields that go together, as a change leaves them: the lengths with their default first, hosts with their assignment. */
export function normalizedChanges(changes: MeetingTypeChanges, current: Pick<MeetingType, 'durations' | 'hosts' | 'assignment'>): MeetingTypeChanges {
  const out = { ...changes };
  if (changes.durationMinutes !== undefined || changes.durations !== undefined) {
    out.durations = lengthsOf(changes.durationMinutes, changes.durations, current.durations);
    out.durationMinutes = out.durations[0];
  }
  if (changes.hosts !== undefined || changes.assignment !== undefined) {
    out.hosts = changes.hosts ?? current.hosts;
    out.assignment = out.hosts.length ? (changes.assignment ?? current.assignment ?? 'collective') : null;
  }
  return out;
}

export const meetingTypesDecider: Decider<Command, CollectionEvent<'meeting_type', MeetingType>, State> = {
  ...collection,
  decide(command, state) {
    if (!(command.type === 'Create' && state.items.has(command.id))) requireFreeSlug(command, state);
    const current = command.type === 'Update' ? state.items.get(command.id) : undefined;
    if (command.type === 'Update' && current) return collection.decide({ ...command, changes: normalizedChanges(command.changes, current) }, state);
    return collection.decide(command, state);
  },
};

export const meetingTypesStream = (userId: string) => `meeting-types-${userId}`;
