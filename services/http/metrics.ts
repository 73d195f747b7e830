/**
 * GET /metrics in the Prometheus text format (prom-client), one registry per role process (the api serves it on
 * PORT, every role on METRICS_PORT: services/http/role-listener.ts). Counted values are instruments the components
 * increment; values that live elsewhere (the read store, the log) are gauges set by a refresh before every scrape.
 * Labels are bounded: route templates, statuses, outcomes, projection names; never ids or raw paths.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { projectionHealth, type HealthSources } from '../../projections/health';
import type { EventStore } from '../eventstore/event-store.port';
import type { ReadStore } from '../readstore/read-store.port';
import { withTimeout } from '../timeout';
import { deliveryQueue, relayHealth, runQueue, type QueueHealth } from './role-health';

/** A refresh slower than this is left out of the scrape (its gauges keep their last values). */
const REFRESH_TIMEOUT_MS = 2000;

/** The process's own metrics (CPU, memory, event loop, GC), collected once per process whatever the services in it. */
let processRegistry: Registry | null = null;
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export class Metrics {
  readonly registry = new Registry();
  private readonly refreshes: Array<{ source: string; refresh: () => Promise<void> }> = [];
  private readonly registers = [this.registry];

  readonly httpRequests = new Histogram({
    name: 'calendar_http_request_duration_seconds',
    help: 'HTTP requests by method, route template and status: latency (its _count is the request count)',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: this.registers,
  });
  readonly appends = new Histogram({
    name: 'calendar_eventstore_append_duration_seconds',
    help: 'Appends to the event store by outcome (ok, conflict, error): latency (its _count is the append count)',
    labelNames: ['outcome'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: this.registers,
  });
  readonly appendedEvents = new Counter({
    name: 'calendar_eventstore_appended_events_total', help: 'Events appended to the event store', registers: this.registers,
  });
  readonly projectedEvents = new Counter({
    name: 'calendar_projection_events_applied_total', help: 'Events a projection applied', labelNames: ['projection'] as const,
    registers: this.registers,
  });
  readonly busMessages = new Counter({
    name: 'calendar_bus_published_messages_total', help: 'Messages the bus acknowledged (the relay publishes)', registers: this.registers,
  });
  readonly busFailures = new Counter({
    name: 'calendar_bus_publish_failures_total', help: 'Publishes the bus refused or did not answer (retried)', registers: this.registers,
  });
  readonly deliveriesCreated = new Counter({
    name: 'calendar_webhook_deliveries_created_total', help: 'Webhook deliveries created (one per event and webhook)', registers: this.registers,
  });
  readonly deliveryAttempts = new Counter({
    name: 'calendar_webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome: delivered, retrying (failed, a retry is scheduled), failed (no retry left)',
    labelNames: ['outcome'] as const,
    registers: this.registers,
  });
  readonly subscriptionFetches = new Counter({
    name: 'calendar_subscription_fetches_total',
    help: 'Fetches of subscribed calendars by outcome: changed (read and applied), not_modified, failed',
    labelNames: ['outcome'] as const,
    registers: this.registers,
  });
  readonly automationRuns = new Counter({
    name: 'calendar_automation_runs_total', help: 'Automation runs started, and finished by status (succeeded, failed, cancelled)',
    labelNames: ['status'] as const,
    registers: this.registers,
  });
  readonly reminders = new Counter({
    name: 'calendar_reminders_recorded_total', help: 'Reminders recorded as due by this process: fired (delivered) or missed (their event had begun)',
    labelNames: ['outcome'] as const,
    registers: this.registers,
  });
  private readonly refreshFailures = new Counter({
    name: 'calendar_metrics_refresh_failures_total', help: 'Scrapes that could not read a source (its gauges kept their last values)',
    labelNames: ['source'] as const,
    registers: this.registers,
  });

  /** Runs `refresh` before every scrape, to set gauges whose values are read rather than counted. */
  onScrape(source: string, refresh: () => Promise<void>): void {
    this.refreshes.push({ source, refresh });
  }

  /** Always answers: a source that fails or is slow (a store unreachable) is counted and its gauges keep their values. */
  async render(): Promise<{ contentType: string; text: string }> {
    await Promise.all(this.refreshes.map(({ source, refresh }) =>
      withTimeout(refresh(), REFRESH_TIMEOUT_MS, source).catch(() => this.refreshFailures.inc({ source }))));
    const text = (await processMetrics().metrics()) + (await this.registry.metrics());
    return { contentType: this.registry.contentType, text };
  }

  gauge(name: string, help: string, labelNames: readonly string[] = []): Gauge {
    return new Gauge({ name, help, labelNames, registers: this.registers });
  }
}

/** Per projection: position, lag in log positions and in seconds, and dead letters; and the head of the log. */
export function addProjectionMetrics(metrics: Metrics, sources: HealthSources): void {
  const labelNames = ['projection'];
  const head = metrics.gauge('calendar_log_head_position', 'Position of the last event in the log');
  const position = metrics.gauge('calendar_projection_position', 'Log position the projection has applied', labelNames);
  const lagPositions = metrics.gauge('calendar_projection_lag_positions', 'Log positions between the projection and the head', labelNames);
  const lagSeconds = metrics.gauge(
    'calendar_projection_lag_seconds', 'Age of the oldest event the projection has not applied (0 when caught up)', labelNames,
  );
  const deadLetters = metrics.gauge(
    'calendar_projection_dead_letters', 'Events the projection could not apply and passed (its active storage)', labelNames,
  );
  metrics.onScrape('projections', async () => {
    const health = await projectionHealth(sources);
    head.set(health.head);
    for (const p of health.projections) {
      const labels = { projection: p.name };
      position.set(labels, p.position);
      lagPositions.set(labels, p.lagPositions);
      lagSeconds.set(labels, p.lagSeconds);
      deadLetters.set(labels, p.deadLetters);
    }
  });
}

/** The relay: its checkpoint and how far the bus is behind the log (events and the age of the oldest). */
export function addRelayMetrics(metrics: Metrics, events: EventStore, store: ReadStore): void {
  const position = metrics.gauge('calendar_relay_position', 'Log position up to which the bus acknowledged every event');
  const lagPositions = metrics.gauge('calendar_relay_lag_positions', 'Log positions between the relay checkpoint and the head');
  const lagSeconds = metrics.gauge('calendar_relay_lag_seconds', 'Age of the oldest event not yet in the bus (0 when caught up)');
  metrics.onScrape('relay', async () => {
    const relay = await relayHealth(events, store);
    position.set(relay.position);
    lagPositions.set(relay.lagPositions);
    lagSeconds.set(relay.lagSeconds);
  });
}

/** A queue of work in the read store: its depth, what is due, and how long the longest-due item has waited. */
function addQueueMetrics(metrics: Metrics, source: string, prefix: string, state: string, what: string, read: () => Promise<QueueHealth>): void {
  const waiting = metrics.gauge(`${prefix}_${state}`, `${what}, due or not (queue depth)`);
  const due = metrics.gauge(`${prefix}_due`, `${what} due now`);
  const oldest = metrics.gauge(`${prefix}_oldest_due_seconds`, `How long the longest-due of the ${what.toLowerCase()} has been due`);
  metrics.onScrape(source, async () => {
    const queue = await read();
    waiting.set(queue.waiting);
    due.set(queue.due);
    oldest.set(queue.oldestDueSeconds);
  });
}

export const addDeliveryMetrics = (metrics: Metrics, store: ReadStore) =>
  addQueueMetrics(metrics, 'deliveries', 'calendar_webhook_deliveries', 'pending', 'Pending webhook deliveries', () => deliveryQueue(store));

export const addAutomationMetrics = (metrics: Metrics, store: ReadStore) =>
  addQueueMetrics(metrics, 'automation runs', 'calendar_automation_runs', 'running', 'Unfinished automation runs', () => runQueue(store));
