/** The upcaster registry: chains of versions, gaps refused, current and newer data left alone. */
import { schemaVersionOf } from '../../contracts/domain-events';
import type { RecordedEvent } from '../../services/eventstore/event-store.port';
import { UPCASTERS, Upcasters, type Upcaster } from '../../services/eventstore/upcasters';

const recorded = (type: string, data: unknown, schemaVersion: number): RecordedEvent => ({
  id: 'e1', type, data, streamId: 's', revision: 0, position: 1,
  metadata: { userId: null, correlationId: 'c', causationId: 'c', occurredAt: '2031-01-01T00:00:00.000Z', schemaVersion },
});

/** thing v1 {name} -> v2 {fullName} -> v3 {fullName, tags}. */
const thingUpcasters: Upcaster[] = [
  { type: 'thing', from: 1, up: ({ name, ...rest }) => ({ ...rest, fullName: name }) },
  { type: 'thing', from: 2, up: (d) => ({ ...d, tags: [] }) },
];

describe('upcaster registry', () => {
  it('runs the chain from the stored version to the current one and stamps the new version', () => {
    const registry = new Upcasters(thingUpcasters, { thing: 3 });
    const v1 = registry.upcast(recorded('thing', { name: 'Ada', n: 1 }, 1));
    expect(v1.data).toEqual({ fullName: 'Ada', n: 1, tags: [] });
    expect(v1.metadata.schemaVersion).toBe(3);
    expect(registry.upcast(recorded('thing', { fullName: 'Ada' }, 2)).data).toEqual({ fullName: 'Ada', tags: [] });
  });

  it('leaves current, newer, unknown and non-object data as stored', () => {
    const registry = new Upcasters(thingUpcasters, { thing: 3 });
    for (const event of [
      recorded('thing', { fullName: 'Ada', tags: ['x'] }, 3),
      recorded('thing', { whatever: true }, 4),
      recorded('other', { name: 'Ada' }, 1),
      recorded('thing', null, 1),
    ]) {
      expect(registry.upcast(event)).toBe(event);
    }
  });

  it('never changes the stored event it was given', () => {
    const stored = recorded('thing', { name: 'Ada' }, 1);
    new Upcasters(thingUpcasters, { thing: 3 }).upcast(stored);
    expect(stored).toEqual(recorded('thing', { name: 'Ada' }, 1));
  });

  it('refuses a registry with a missing step or two upcasters for one version', () => {
    expect(() => new Upcasters([thingUpcasters[1]], { thing: 3 })).toThrow('thing is at version 3 but has no upcaster from 1');
    expect(() => new Upcasters([...thingUpcasters, thingUpcasters[0]], { thing: 3 })).toThrow('two upcasters for thing@1');
  });

  it("the service's registry is complete; event.* v1 reads as v4: unlinked planner fields, no reminders, exceptions or iCalendar identity", () => {
    expect(() => new Upcasters(UPCASTERS)).not.toThrow();
    expect(schemaVersionOf('event.created')).toBe(4);
    expect(schemaVersionOf('task.created')).toBe(1);
    const v1 = { id: 'x', title: 'Standup' };
    const unlinked = { taskId: null, goalId: null, reminders: [], exceptions: [], icalUid: null, icalRecurrenceId: null };
    for (const type of ['event.created', 'event.updated', 'event.cancelled']) {
      const read = new Upcasters(UPCASTERS).upcast(recorded(type, v1, 1));
      expect(read.data).toEqual({ id: 'x', title: 'Standup', ...unlinked });
      expect(read.metadata.schemaVersion).toBe(4);
    }
    const linked = { id: 'x', taskId: 't', goalId: 'g' };
    expect(new Upcasters(UPCASTERS).upcast(recorded('event.updated', linked, 1)).data)
      .toEqual({ ...linked, reminders: [], exceptions: [], icalUid: null, icalRecurrenceId: null });
    const v2 = { id: 'x', taskId: null, goalId: null, reminders: [{ minutesBefore: 5, method: 'push' }] };
    expect(new Upcasters(UPCASTERS).upcast(recorded('event.created', v2, 2)).data)
      .toEqual({ ...v2, exceptions: [], icalUid: null, icalRecurrenceId: null });
    const imported = { ...v2, exceptions: [], icalUid: 'abc@example.com', icalRecurrenceId: null };
    expect(new Upcasters(UPCASTERS).upcast(recorded('event.created', imported, 4)).data).toEqual(imported);
  });

  it('event.occurrence.* v1 reads as v2: its series and occurrence without iCalendar identity', () => {
    for (const type of ['event.occurrence.changed', 'event.occurrence.cancelled']) {
      const v1 = { seriesId: 'x', occurrenceStartsAt: 'o', occurrence: { id: 'x' }, series: { id: 'x', exceptions: [] } };
      const read = new Upcasters(UPCASTERS).upcast(recorded(type, v1, 1));
      expect(read.data).toEqual({
        seriesId: 'x', occurrenceStartsAt: 'o', occurrence: { id: 'x', icalUid: null, icalRecurrenceId: null },
        series: { id: 'x', exceptions: [], icalUid: null, icalRecurrenceId: null },
      });
      expect(read.metadata.schemaVersion).toBe(2);
    }
  });
});
