/**
 * The webhook catalogue: every webhook type in the order of api-spec.md section 6, with its payload schemas, the
 * flags GET /webhooks/event-types shows, and the domain events that produce it. The dispatcher reads nothing else:
 * a capability that starts emitting a domain event named in `producers` is delivered without touching the pipeline.
 *
 * A producer turns a domain event into the delivered `data` (and `previous`) and names whose webhooks get it.
 * The domain event's data is the payload, or `{data, previous}` where the type carries `previous`.
 */
import type { z } from 'zod';
import { Booking, bookingAudience, BookingRescheduledPrevious } from './bookings';
import { Event, EventOrOccurrence } from './events';
import { Routine, RoutinePeriodDay } from './routines';
import { Task } from './tasks';
import { FormSubmittedPayload, MessagingReceivedPayload, PaymentsEventPayload, TaskDueChangedPrevious } from './webhook-payloads';

/**
 * Whose webhooks receive a delivery: every member of a Space (with `calendarId`, also the people that calendar is
 * shared with as reader or writer: services/dispatcher/audience.ts), or the named users.
 */
export type Audience = { spaceId: string; calendarId?: string } | { userIds: string[] };

export interface Produced {
  data: unknown;
  previous?: unknown;
  audience: Audience;
}

/** What a producer sees of a recorded domain event. */
export interface ProducerInput {
  data: unknown;
  metadata: { userId: string | null; spaceId?: string };
}

export type Producer = (event: ProducerInput) => Produced;

export interface WebhookTypeDef {
  type: string;
  /** "Emitted when", as api-spec.md words it. */
  description: string;
  /** Shown in the webhook settings (the spec's first sixteen). */
  listedInSettings: boolean;
  /** Fed by the integration layer (POST /integrations/inbound) rather than by our own operations. */
  integration: boolean;
  data: z.ZodType;
  previous?: z.ZodType;
  /** Domain event type -> producer. */
  producers: Record<string, Producer>;
}

type WithPrevious<T> = { data: T; previous: unknown };

const toCalendar: Producer = ({ data }) => ({ data, audience: { spaceId: (data as Event).spaceId, calendarId: (data as Event).calendarId } });
/** One occurrence changed or cancelled (`event.occurrence.*`): the occurrence is what is delivered. */
const occurrenceToCalendar: Producer = ({ data }) => {
  const { occurrence } = data as { occurrence: Event };
  return { data: occurrence, audience: { spaceId: occurrence.spaceId, calendarId: occurrence.calendarId } };
};
const toTaskOwner: Producer = ({ data }) => ({ data, audience: { userIds: [(data as Task).createdBy] } });
const toAssignee: Producer = ({ data }) => ({ data, audience: { userIds: [(data as Task).assigneeId].filter((id): id is string => !!id) } });
const toHost: Producer = ({ data }) => ({ data, audience: { userIds: bookingAudience(data as Booking) } });

const toRoutineOwner: Producer = ({ data }) => ({ data, audience: { userIds: [(data as z.infer<typeof Routine>).ownerId] } });
const toPeriodOwner: Producer = ({ data }) => ({
  data, audience: { userIds: [(data as z.infer<typeof RoutinePeriodDay>).routine.ownerId] },
});
const withPrevious = (audience: (data: never) => string[]): Producer => ({ data }) => {
  const d = data as WithPrevious<never>;
  return { data: d.data, previous: d.previous, audience: { userIds: audience(d.data) } };
};
/** Integration domain events carry `{userId, payload}`. */
const toIntegrationUser: Producer = ({ data }) => {
  const d = data as { userId: string; payload: unknown };
  return { data: d.payload, audience: { userIds: [d.userId] } };
};

const def = (
  type: string, description: string, data: z.ZodType, producer: Producer,
  extra: Partial<Pick<WebhookTypeDef, 'previous' | 'listedInSettings' | 'integration'>> = {},
): WebhookTypeDef => ({
  type, description, data, listedInSettings: true, integration: false, producers: { [type]: producer }, ...extra,
});

const withProducer = (d: WebhookTypeDef, domainType: string, producer: Producer): WebhookTypeDef => ({
  ...d, producers: { ...d.producers, [domainType]: producer },
});

export const WEBHOOK_CATALOGUE: readonly WebhookTypeDef[] = [
  def('event.created', 'an event is created', Event, toCalendar),
  withProducer(def('event.updated', 'an event\'s details or time change', EventOrOccurrence, toCalendar), 'event.occurrence.changed', occurrenceToCalendar),
  withProducer(def('event.cancelled', 'an event or one occurrence is cancelled', EventOrOccurrence, toCalendar), 'event.occurrence.cancelled', occurrenceToCalendar),
  def('task.created', 'a task is created', Task, toTaskOwner),
  def('task.updated', 'a task\'s details change', Task, toTaskOwner),
  def('task.completed', 'a task is marked done', Task, toTaskOwner),
  def('task.assigned', 'someone is assigned to a task; sent to the assignee', Task, toAssignee),
  def('task.due_changed', 'a task\'s due date is set or moved', Task, withPrevious((t: Task) => [t.createdBy]), {
    previous: TaskDueChangedPrevious,
  }),
  def('task.deleted', 'a task is deleted', Task, toTaskOwner),
  def('booking.created', 'someone books through a public booking page', Booking, toHost),
  // A declined request is delivered as a cancellation (status `declined`): the catalogue is the spec's.
  withProducer(def('booking.cancelled', 'a booking is cancelled by guest or host', Booking, toHost), 'booking.declined', toHost),
  def('booking.rescheduled', 'a booking moves, by guest or host; carries the previous start', Booking, withPrevious(bookingAudience), {
    previous: BookingRescheduledPrevious,
  }),
  def('routine.created', 'a routine is created', Routine, toRoutineOwner),
  def('routine.updated', 'a routine\'s name, days or periods change', Routine, toRoutineOwner),
  def('routine.deleted', 'a routine is deleted', Routine, toRoutineOwner),
  def('routine.period.completed', 'a period is marked done for a day', RoutinePeriodDay, toPeriodOwner),
  def('routine.period.skipped', 'a period is skipped for a day', RoutinePeriodDay, toPeriodOwner, {
    listedInSettings: false,
  }),
  def('messaging.received', 'a message arrives at a connected messaging-business number; carries sender and text',
    MessagingReceivedPayload, toIntegrationUser, { listedInSettings: false, integration: true }),
  def('payments.event', 'a payment, subscription or invoice event on a connected payments account; carries amount and customer',
    PaymentsEventPayload, toIntegrationUser, { listedInSettings: false, integration: true }),
  def('form.submitted', 'a watched online form is filled in; carries every answer', FormSubmittedPayload,
    toIntegrationUser, { listedInSettings: false, integration: true }),
];

export const WEBHOOK_TYPES = WEBHOOK_CATALOGUE.map((d) => d.type);

/** Domain event type -> the webhook types it produces. */
const byDomainType = new Map<string, Array<{ def: WebhookTypeDef; produce: Producer }>>();
for (const d of WEBHOOK_CATALOGUE) {
  for (const [domainType, produce] of Object.entries(d.producers)) {
    byDomainType.set(domainType, [...(byDomainType.get(domainType) ?? []), { def: d, produce }]);
  }
}

export const webhooksProducedBy = (domainType: string) => byDomainType.get(domainType) ?? [];
/** The domain event types some webhook type is made from. */
export const PRODUCING_DOMAIN_TYPES: ReadonlySet<string> = new Set(byDomainType.keys());
