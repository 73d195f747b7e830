import type { DomainEvent } from '../../contracts/domain-events';
import type { IntegrationType } from '../../contracts/webhook-payloads';
import type { Decider } from '../../services/commands/decider';

export type IntegrationEvent = Extract<DomainEvent, { type: IntegrationType }>;
export type IntegrationCommand = { type: 'RecordInbound'; event: IntegrationEvent };

/** One stream per user: what providers reported for them. There is no rule to keep; every report is recorded. */
export const integrationStream = (userId: string) => `integration-${userId}`;

export const integrationDecider: Decider<IntegrationCommand, IntegrationEvent, null> = {
  initialState: () => null,
  decide: (command) => [command.event],
  evolve: (state) => state,
};
