/** The assistant's calendar port answered from the read models through the availability engine. */
import type { AssistantPreferences } from '../../contracts/assistant';
import type { AppContext } from '../../services/app-context';
import { overlaps } from '../../services/availability/intervals';
import { freeWindows } from '../../services/availability/timeline';
import type { Blocked, Interval, Occurrence, WeeklyHours } from '../../services/availability/types';
import type { AssistantWorld, CalendarItem, DueTask } from '../../services/assistant/world';
import { notFound } from '../../services/errors';
import { computeFor } from '../availability/availability.queries';
import { readModelSources, workingHoursOf, type AvailabilitySources, type Owner } from '../availability/sources';
import { visibleEvent } from '../events/events.queries';
import { userById } from '../profile/users.queries';
import { routineBlocks } from '../routines/routines.queries';
import { spaceIdsOf } from '../spaces/spaces.queries';
import { taskPage } from '../tasks/tasks.queries';

const MAX_TASKS = 100;
const iso = (ms: number) => new Date(ms).toISOString();

const itemOf = (o: Occurrence): CalendarItem => ({
  id: o.event.id, title: o.event.title ?? '', kind: o.event.kind, start: o.start, end: o.end,
  allDay: o.event.allDay, busy: o.event.busy, recurring: !!o.event.recurrenceRule,
});

export interface WorldOwner extends Owner {
  weekStartsOn: number;
}

/** The parts of the world that are not availability: one event by id, and tasks due. */
export interface WorldLookups {
  event(id: string): Promise<CalendarItem | null>;
  tasksDue(range: Interval): Promise<DueTask[]>;
}

/** The port over any availability sources (the read models in the service, memory in unit tests). */
export function worldOver(
  userId: string, owner: WorldOwner, sources: AvailabilitySources, lookups: WorldLookups, now: number, preferences: AssistantPreferences,
): AssistantWorld {
  const compute = (range: Interval, workingHours: WeeklyHours | null) =>
    computeFor(sources, userId, owner, range, { workingHours, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, minimumNoticeMinutes: 0, now });

  return {
    now,
    timeZone: owner.timeZone,
    weekStartsOn: owner.weekStartsOn,
    preferences,
    ...lookups,

    async freeTime(range, options) {
      const found = await compute(range, options?.anyHours ? null : owner.workingHours);
      return freeWindows(range, found.blocked);
    },

    async busyTime(range, exceptEventId) {
      const found = await compute(range, null);
      const labelOf = (b: Blocked) => {
        const reason = b.reason;
        if (reason.type === 'routine') return found.routines.find((r) => r.periodId === reason.periodId)?.name ?? 'a routine';
        const id = 'eventId' in reason ? reason.eventId : undefined;
        return found.occurrences.find((o) => o.event.id === id)?.event.title ?? 'an event';
      };
      return found.busy
        .filter((b) => overlaps(b, range) && !('eventId' in b.reason && b.reason.eventId === exceptEventId))
        .map((b) => ({ start: b.start, end: b.end, label: labelOf(b) }));
    },

    async events(range) {
      return (await compute(range, null)).occurrences.map(itemOf);
    },
  };
}

export async function assistantWorld(app: AppContext, userId: string, now: number, preferences: AssistantPreferences): Promise<AssistantWorld> {
  const user = await userById(app.readModels, userId);
  if (!user) throw notFound('User');
  const owner = { timeZone: user.timeZone, workingHours: workingHoursOf(user.preferences), weekStartsOn: user.weekStartsOn };
  return worldOver(userId, owner, readModelSources(app.readModels, routineBlocks), {
    /** Events of the person's own Spaces only: an invitation from someone else's calendar is not theirs to move. */
    async event(id) {
      const event = await visibleEvent(app.readModels, userId, id);
      if (!event || !(await spaceIdsOf(app.readModels, userId)).includes(event.spaceId)) return null;
      return {
        id: event.id, title: event.title, kind: event.kind, start: Date.parse(event.startsAt), end: Date.parse(event.endsAt),
        allDay: event.allDay, busy: event.busy, recurring: !!event.recurrenceRule,
      };
    },

    async tasksDue(range) {
      const { tasks } = await taskPage(app.readModels, userId, { status: 'open', dueAfter: iso(range.start), dueBefore: iso(range.end), limit: MAX_TASKS });
      return tasks
        .filter((t) => t.dueAt !== null)
        .map((t) => ({ id: t.id, title: t.title, dueAt: t.dueAt! }))
        .sort((a, b) => a.dueAt.localeCompare(b.dueAt));
    },
  }, now, preferences);
}
