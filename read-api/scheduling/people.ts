/**
 * The people of a scheduling request as the caller may see them. A person's busy time is that of the calendars of
 * their own Spaces the caller can see (any role: calendar-access.ts); the caller's own is what GET /free-busy reads.
 * Someone who shares nothing with the caller, and an id or email of nobody, come out alike (no inputs): nothing is
 * read of them, so nothing of theirs can leak into an answer.
 */
import { Uuid } from '../../contracts/common';
import type { ReadModels } from '../../projections/read-models';
import { DEFAULT_BUDGET } from '../../services/availability/busy';
import type { Interval } from '../../services/availability/types';
import { calendarEventsByCalendar, togetherOf } from '../availability/busy-time.queries';
import { workingHoursOf, type RoutineBlocksQuery } from '../availability/sources';
import { userById, userIdsByEmail } from '../profile/users.queries';
import { calendarAccessOf } from '../spaces/calendar-access';
import type { PersonInputs } from './answers';

/** The refs once each, in the order given (emails compared without case). */
export function distinctRefs(refs: readonly string[]): string[] {
  const seen = new Set<string>();
  return refs.filter((ref) => {
    const key = ref.toLowerCase();
    return !seen.has(key) && (seen.add(key), true);
  });
}

const isId = (ref: string) => Uuid.safeParse(ref).success;

/** Each person's inputs over `window`, in the order of `refs` (validated as PersonRef, repeats already dropped). */
export async function peopleInputs(
  models: ReadModels, routineBlocks: RoutineBlocksQuery, callerId: string, refs: readonly string[], window: Interval,
): Promise<PersonInputs[]> {
  const emails = refs.filter((r) => !isId(r));
  const [byEmail, access] = await Promise.all([userIdsByEmail(models, emails), calendarAccessOf(models, callerId)]);
  // Other people's calendars the caller can see (any role), by whose they are; the caller's own time is every
  // calendar of their Spaces and organizations, as GET /free-busy reads it.
  const calendarsOf = new Map<string, string[]>([[callerId, access.filter((a) => a.viaSpace).map((a) => a.calendar.id)]]);
  for (const a of access) {
    if (a.ownerId === callerId) continue;
    if (!calendarsOf.has(a.ownerId)) calendarsOf.set(a.ownerId, []);
    calendarsOf.get(a.ownerId)!.push(a.calendar.id);
  }

  const asked = refs.map((ref) => ({ ref, userId: isId(ref) ? ref.toLowerCase() : byEmail.get(ref.toLowerCase()) ?? null }));
  const shared = [...new Set(asked.map((a) => a.userId).filter((id): id is string => id !== null && calendarsOf.has(id)))];
  const [users, events, routines] = await Promise.all([
    Promise.all(shared.map((id) => userById(models, id))),
    calendarEventsByCalendar(models, shared.flatMap((id) => calendarsOf.get(id)!), window, DEFAULT_BUDGET.maxEvents),
    shared.includes(callerId) ? routineBlocks(models, callerId, window.start, window.end) : [],
  ]);
  const found = new Map(shared.map((id, i) => [id, users[i]]));

  return asked.map(({ ref, userId }) => {
    const user = userId ? found.get(userId) : undefined;
    if (!user) return isId(ref) ? { id: ref, email: null, inputs: null } : { id: null, email: ref, inputs: null };
    const owner = { timeZone: user.timeZone, workingHours: workingHoursOf(user.preferences) };
    const inputs = { owner, events: togetherOf(events, calendarsOf.get(user.id)!), routines: user.id === callerId ? routines : [] };
    return { id: user.id, email: user.email, inputs };
  });
}
