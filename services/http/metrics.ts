/**
 * GET /metrics in the Prometheus text format (prom-client). Each source adds its metrics to the one registry and,
 * where its values live elsewhere (the read store, the log), a refresh that runs before every scrape.
 */
import { Gauge, Registry } from 'prom-client';
import { projectionHealth, type HealthSources } from '../../projections/health';

export class Metrics {
  readonly registry = new Registry();
  private readonly refreshes: Array<() => Promise<void>> = [];

  /** Runs `refresh` before every scrape, to set gauges whose values are read rather than counted. */
  onScrape(refresh: () => Promise<void>): void {
    this.refreshes.push(refresh);
  }

  async render(): Promise<{ contentType: string; text: string }> {
    await Promise.all(this.refreshes.map((refresh) => refresh()));
    return { contentType: this.registry.contentType, text: await this.registry.metrics() };
  }
}

/** Per projection: position, lag in log positions and in seconds, and dead letters; and the head of the log. */
export function addProjectionMetrics(metrics: Metrics, sources: HealthSources): void {
  const registers = [metrics.registry];
  const labelNames = ['projection'] as const;
  const head = new Gauge({ name: 'calendar_log_head_position', help: 'Position of the last event in the log', registers });
  const position = new Gauge({ name: 'calendar_projection_position', help: 'Log position the projection has applied', labelNames, registers });
  const lagPositions = new Gauge({
    name: 'calendar_projection_lag_positions', help: 'Log positions between the projection and the head', labelNames, registers,
  });
  const lagSeconds = new Gauge({
    name: 'calendar_projection_lag_seconds', help: 'Age of the oldest event the projection has not applied (0 when caught up)', labelNames, registers,
  });
  const deadLetters = new Gauge({
    name: 'calendar_projection_dead_letters', help: 'Events the projection could not apply and passed (its active storage)', labelNames, registers,
  });
  metrics.onScrape(async () => {
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
