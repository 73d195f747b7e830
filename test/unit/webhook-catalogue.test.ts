/**
 * The webhook catalogue against api-spec.md section 6 and the addendum: the twenty types in the table's order,
 * a payload schema for each, the settings flags, and producers that route to the right people.
 */
import { z } from 'zod';
import { domainEvents } from '../../contracts/domain-events';
import { Event } from '../../contracts/events';
import { WEBHOOK_CATALOGUE, WEBHOOK_TYPES, webhooksProducedBy } from '../../contracts/webhook-catalogue';
import { webhookTypeInfos } from '../../contracts/webhooks';

/** api-spec.md section 6, "Event types", in table order. */
const SPEC_TYPES = [
  'event.created', 'event.updated', 'event.cancelled',
  'task.created', 'task.updated', 'task.completed', 'task.assigned', 'task.due_changed', 'task.deleted',
  'booking.created', 'booking.cancelled', 'booking.rescheduled',
  'routine.created', 'routine.updated', 'routine.deleted', 'routine.period.completed', 'routine.period.skipped',
  'messaging.received', 'payments.event', 'form.submitted',
];

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const at = '2031-03-01T10:00:00.000Z';

const sampleEvent: Event = {
  id: uuid(1), spaceId: uuid(2), calendarId: uuid(3), title: 'Standup', description: null, location: null,
  meetingUrl: null, kind: 'meeting', startsAt: at, endsAt: '2031-03-01T10:15:00.000Z', timeZone: 'Europe/Paris',
  allDay: false, busy: true, recurrenceRule: null, taskId: null, goalId: null, resources: [], attendees: [], reminders: [],
  allowOverlap: false, exceptions: [], icalUid: null, icalRecurrenceId: null,
  status: 'confirmed', createdBy: uuid(4), createdAt: at, updatedAt: at, deletedAt: null, version: 1,
};
const sampleTask = {
  id: uuid(10), title: 'Write', notes: null, projectId: null, listId: null, dueAt: at, estimateMinutes: 30,
  priority: 'normal', assigneeId: uuid(11), status: 'open', createdBy: uuid(12), createdAt: at, updatedAt: at,
  completedAt: null, deletedAt: null, rank: 'V00000', version: 1,
};
const meta = { userId: uuid(4) };

describe('webhook catalogue', () => {
  it('lists the twenty types of the spec, in the spec\'s order', () => {
    expect(WEBHOOK_TYPES).toEqual(SPEC_TYPES);
  });

  it('has a payload schema for every type, each publishable in OpenAPI under its own id', () => {
    for (const def of WEBHOOK_CATALOGUE) {
      expect({ type: def.type, hasSchema: def.data instanceof z.ZodType }).toEqual({ type: def.type, hasSchema: true });
      if (def.previous) expect(def.previous).toBeInstanceOf(z.ZodType);
      expect(z.globalRegistry.get(def.data)?.id).toEqual(expect.any(String));
      expect(() => z.toJSONSchema(def.data, { unrepresentable: 'any' })).not.toThrow();
    }
  });

  it('carries previous values where the spec says so', () => {
    const previousOf = (type: string) => WEBHOOK_CATALOGUE.find((d) => d.type === type)!.previous;
    expect(previousOf('booking.rescheduled')!.safeParse({ startsAt: at, endsAt: at }).success).toBe(true);
    expect(previousOf('booking.rescheduled')!.safeParse({}).success).toBe(false);
    expect(previousOf('task.due_changed')!.safeParse({ dueAt: null }).success).toBe(true);
    expect(WEBHOOK_CATALOGUE.filter((d) => d.previous).map((d) => d.type)).toEqual(['task.due_changed', 'booking.rescheduled']);
  });

  it('flags the settings list and the integration types as the addendum says', () => {
    expect(webhookTypeInfos.map((t) => [t.type, t.listedInSettings, t.integration])).toEqual(
      SPEC_TYPES.map((type, i) => [type, i < 16, i >= 17]),
    );
    for (const t of webhookTypeInfos) expect(t.description.length).toBeGreaterThan(0);
  });

  it('names at least one producing domain event per type; today\'s domain events are all wired', () => {
    for (const def of WEBHOOK_CATALOGUE) expect(Object.keys(def.producers).length).toBeGreaterThan(0);
    const wired = Object.keys(domainEvents).filter((t) => webhooksProducedBy(t).length > 0);
    expect(wired).toEqual([
      'event.created', 'event.updated', 'event.cancelled', 'event.occurrence.changed', 'event.occurrence.cancelled',
      'routine.created', 'routine.updated', 'routine.deleted', 'routine.period.completed', 'routine.period.skipped',
      'task.created', 'task.updated', 'task.completed', 'task.assigned', 'task.due_changed', 'task.deleted',
      // A declined booking request is delivered as booking.cancelled (its status says declined).
      'booking.created', 'booking.rescheduled', 'booking.cancelled', 'booking.declined',
      'messaging.received', 'payments.event', 'form.submitted',
    ]);
  });

  it('delivers event.* as the whole event to the members of its Space and the readers of its calendar', () => {
    for (const type of ['event.created', 'event.updated', 'event.cancelled']) {
      const [{ def, produce }] = webhooksProducedBy(type);
      const produced = produce({ data: sampleEvent, metadata: meta });
      expect(produced).toEqual({ data: sampleEvent, audience: { spaceId: sampleEvent.spaceId, calendarId: sampleEvent.calendarId } });
      expect(def.data.safeParse(produced.data).success).toBe(true);
    }
  });

  it('delivers a changed or cancelled occurrence as event.updated or event.cancelled whose data is the occurrence', () => {
    const series = { ...sampleEvent, recurrenceRule: 'FREQ=DAILY', exceptions: [{ occurrenceStartsAt: '2031-03-02T10:00:00.000Z', title: 'Moved' }] };
    const { exceptions: _x, ...fields } = series;
    const occurrence = { ...fields, title: 'Moved', startsAt: '2031-03-02T10:00:00.000Z', endsAt: '2031-03-02T10:15:00.000Z', seriesId: series.id, occurrenceStartsAt: '2031-03-02T10:00:00.000Z' };
    const data = { seriesId: series.id, occurrenceStartsAt: occurrence.occurrenceStartsAt, occurrence, series };
    for (const [domainType, webhookType] of [['event.occurrence.changed', 'event.updated'], ['event.occurrence.cancelled', 'event.cancelled']]) {
      expect(domainEvents[domainType as 'event.occurrence.changed'].safeParse(data).success).toBe(true);
      const [{ def, produce }] = webhooksProducedBy(domainType);
      expect(def.type).toBe(webhookType);
      const produced = produce({ data, metadata: meta });
      expect(produced).toEqual({ data: occurrence, audience: { spaceId: series.spaceId, calendarId: series.calendarId } });
      expect(def.data.safeParse(produced.data).success).toBe(true);
    }
  });

  it('delivers integration events to the named user, with the provider\'s payload as data', () => {
    const payload = { amount: 1250, currency: 'EUR', customer: { email: 'a@example.com' }, kind: 'invoice' };
    const domain = { userId: uuid(7), payload };
    expect(domainEvents['payments.event'].safeParse(domain).success).toBe(true);
    const [{ def, produce }] = webhooksProducedBy('payments.event');
    expect(produce({ data: domain, metadata: { userId: null } })).toEqual({ data: payload, audience: { userIds: [uuid(7)] } });
    expect(def.data.safeParse(payload).success).toBe(true);
  });

  it('delivers task.assigned to the assignee and task.due_changed with the old due date', () => {
    const [{ produce: assigned }] = webhooksProducedBy('task.assigned');
    expect(assigned({ data: sampleTask, metadata: meta }).audience).toEqual({ userIds: [sampleTask.assigneeId] });
    const [{ def, produce: due }] = webhooksProducedBy('task.due_changed');
    const domain = { data: sampleTask, previous: { dueAt: null } };
    expect(domainEvents['task.due_changed'].safeParse(domain).success).toBe(true);
    const produced = due({ data: domain, metadata: meta });
    expect(produced).toEqual({ data: sampleTask, previous: { dueAt: null }, audience: { userIds: [sampleTask.createdBy] } });
    expect(def.data.safeParse(produced.data).success).toBe(true);
  });
});
