/**
 * Webhook delivery, embedded mode, service in process, receiver on 127.0.0.1 in process (answers 200 at once).
 * Events are appended straight to the event store (as the lag bench does), so the figures are the pipeline's:
 * relay -> bus -> dispatcher -> delivery documents -> worker -> HTTP.
 *
 *   throughput: a burst of events to a user with several webhooks; deliveries/s from the first append to the last
 *               delivery received
 *   latency:    one event every few ms to a user with one webhook; append committed -> delivery received
 */
import type { Service } from '../../services/composition';
import type { Percentiles } from './lag-bench';
import { eventCloner, measurePipeline, withPipeline, type Receiver } from './pipeline';
import { json, signUp } from './util';

export interface WebhookBenchResult {
  events: number;
  webhooks: number;
  deliveries: number;
  seconds: number;
  deliveriesPerSec: number;
  latency: Percentiles & { samples: number };
}

/** A user with `webhooks` webhooks to the receiver, and the cloner of one of their events. */
async function subscriber(service: Service, base: string, receiver: Receiver, name: string, webhooks: number) {
  const user = await signUp(base);
  const auth = { authorization: `Bearer ${user.token}` };
  for (let i = 0; i < webhooks; i++) {
    const res = await json(`${base}/webhooks`, 'POST', { name: `${name}-${i}`, url: `${receiver.url}/${name}/${i}`, events: ['event.created'] }, auth);
    if (res.status !== 201) throw new Error(`creating a webhook: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return eventCloner(service, base, auth);
}

export function webhookBench(events: number, webhooks: number, probes: number, intervalMs: number): Promise<WebhookBenchResult> {
  return withPipeline('webhooks', async (service, base, receiver) => {
    const burst = await subscriber(service, base, receiver, 'burst', webhooks);
    const probe = await subscriber(service, base, receiver, 'probe', 1);
    await receiver.until(webhooks + 1, 30_000); // the two template events
    const figures = await measurePipeline(receiver, {
      burst, events, perEvent: webhooks, probe, probes, intervalMs, probeKey: (id) => `/probe/0|${id}`,
    });
    const deliveries = events * webhooks;
    return { events, webhooks, deliveries, seconds: figures.seconds, deliveriesPerSec: deliveries / figures.seconds, latency: figures.latency };
  });
}
