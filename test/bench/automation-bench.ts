/**
 * Automation runs, embedded mode, service in process, receiver on 127.0.0.1 in process (answers 200 at once). Each
 * automation triggers on event.created and runs two steps: a notification (a command appended to the owner's
 * notification stream), then a signed call_webhook to the receiver. Trigger events are appended straight to the
 * event store, so the figures are the runner's pipeline: relay -> bus -> runner (match, run document) -> worker ->
 * notification command -> webhook call.
 *
 *   throughput: a burst of trigger events for one automation; runs/s from the first append to the last call received
 *   latency:    one trigger every few ms for another automation; trigger committed -> last action (the call) received
 */
import type { Service } from '../../services/composition';
import type { Percentiles } from './lag-bench';
import { eventCloner, measurePipeline, withPipeline, type Receiver } from './pipeline';
import { json, signUp } from './util';

export interface AutomationBenchResult {
  runs: number;
  seconds: number;
  runsPerSec: number;
  latency: Percentiles & { samples: number };
}

/** A user with one automation (notify, then call `<receiver>/<name>`), and the cloner of one of their events. */
async function automated(service: Service, base: string, receiver: Receiver, name: string) {
  const user = await signUp(base);
  const auth = { authorization: `Bearer ${user.token}` };
  const res = await json(`${base}/automations`, 'POST', {
    name, enabled: true, trigger: { type: 'event.created' },
    actions: [
      { kind: 'send_notification', config: { title: 'New: {{data.title}}' } },
      { kind: 'call_webhook', config: { url: `${receiver.url}/${name}` } },
    ],
  }, auth);
  if (res.status !== 201) throw new Error(`creating an automation: ${res.status} ${JSON.stringify(res.body)}`);
  return eventCloner(service, base, auth);
}

export function automationBench(events: number, probes: number, intervalMs: number): Promise<AutomationBenchResult> {
  return withPipeline('automations', async (service, base, receiver) => {
    const burst = await automated(service, base, receiver, 'burst');
    const probe = await automated(service, base, receiver, 'probe');
    await receiver.until(2, 30_000); // the runs of the two template events
    const figures = await measurePipeline(receiver, {
      burst, events, perEvent: 1, probe, probes, intervalMs, probeKey: (id) => `/probe|${id}`,
    });
    return { runs: events, seconds: figures.seconds, runsPerSec: events / figures.seconds, latency: figures.latency };
  });
}
