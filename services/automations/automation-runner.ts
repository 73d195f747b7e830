/**
 * The automations role: a consumer group on the relayed domain events that, for each event, finds the active
 * automations of the people in its webhook audience whose trigger type and filters match the payload a webhook of
 * that type would deliver, and creates one run per (automation, event), plus the worker that carries the runs.
 *
 * A run is created with insertNew under an id derived from (automation id, event id) before any step runs, so an
 * event consumed twice (redelivery, a replayed relay, a crash before the offset commit) never runs twice. An
 * automation acts on events committed after it was (last) switched on, and never on events that automations caused.
 */
import { PRODUCING_DOMAIN_TYPES, webhooksProducedBy } from '../../contracts/webhook-catalogue';
import { AUTOMATIONS, recordOf, type AutomationDoc } from '../../projections/automations.projection';
import type { AppContext } from '../app-context';
import type { Bus } from '../bus/bus.port';
import { audienceMembers, deliveredPayload } from '../dispatcher/audience';
import type { RecordedEvent } from '../eventstore/event-store.port';
import { consumeDomainEvents, joinInBackground } from '../relay/event-consumer';
import { AUTOMATION_CORRELATION } from './actions';
import { AutomationSecrets } from './automation-secrets';
import { matchesFilters } from './payload';
import { chainRunner } from './run-chain';
import { newRun, RunStore } from './run-store';
import { RunWorker } from './run-worker';

/** Automations one event may start (the audience's, of one type); more are left out and logged. */
const MAX_MATCHES = 1000;
/** Beyond the longest bounded wait of a step: how long a claim holds before another worker may take the run over. */
const LEASE_EXTRA_MS = 5_000;

export interface AutomationRunner {
  worker: RunWorker;
  stop(): Promise<void>;
}

export async function startAutomationRunner(app: AppContext, bus: Bus): Promise<AutomationRunner> {
  const log = app.log.child({ role: 'automations' });
  const runs = new RunStore(app.store);
  await runs.ensureIndexes();
  const secrets = new AutomationSecrets(app.store, app.serverKeys);
  const leaseMs = Math.max(app.config.WEBHOOK_TIMEOUT_MS, app.config.MIN_POSITION_WAIT_MS) + LEASE_EXTRA_MS;
  const carry = chainRunner(app, log, runs, { app, secretOf: (id) => secrets.get(id) }, leaseMs);
  const worker = new RunWorker(runs, carry, { leaseMs }, log);
  worker.start();

  /** False when it started no run. */
  const startRuns = async (event: RecordedEvent): Promise<boolean> => {
    if (event.metadata.correlationId.startsWith(AUTOMATION_CORRELATION)) return false;
    const produced = webhooksProducedBy(event.type);
    if (produced.length === 0) return false;
    // Automations come from their projection: let it reach this event first (else the bus delivers it again later).
    if (!(await app.watermarks.waitFor([AUTOMATIONS], event.position, app.config.MIN_POSITION_WAIT_MS))) {
      throw new Error(`the automations read model has not reached position ${event.position} yet`);
    }
    const automations = (await app.readModels.docs(AUTOMATIONS))<AutomationDoc>('automations');
    let created = 0;
    for (const { def, produce } of produced) {
      const delivered = produce(event);
      const owners = await audienceMembers(app, delivered.audience, event.position);
      if (owners.length === 0) continue;
      const candidates = await automations.find(
        { _triggerType: def.type, ownerId: { $in: owners }, isActive: true, deletedAt: null },
        { limit: MAX_MATCHES },
      );
      if (candidates.length === MAX_MATCHES) log.warn({ event: event.id, type: def.type }, 'more automations match than one event starts');
      const payload = deliveredPayload(event, def.type, delivered);
      for (const automation of candidates) {
        if (automation._activeFromPos === null || event.position <= automation._activeFromPos) continue;
        if (!matchesFilters(payload, recordOf(automation).trigger.filters)) continue;
        if (await runs.runs.insertNew(newRun(automation, payload, event.position, event.metadata.correlationId))) created++;
      }
    }
    if (created === 0) return false;
    app.metrics.automationRuns.inc({ status: 'started' }, created);
    log.info({ correlationId: event.metadata.correlationId, eventId: event.id, type: event.type, runs: created }, 'automation runs started');
    worker.wake();
    return true;
  };

  // One group per topic: deployments (and test services) sharing a Kafka cluster never share a group.
  const consumer = joinInBackground(
    () => consumeDomainEvents(bus, app.store, app.config.KAFKA_TOPIC, `automations.${app.config.KAFKA_TOPIC}`, app.codec, startRuns, PRODUCING_DOMAIN_TYPES),
    (err, delay) => log.warn({ err, delay }, 'the automations runner could not join its consumer group; retrying'),
  );
  return {
    worker,
    async stop() {
      await consumer.stop();
      await worker.stop();
    },
  };
}
