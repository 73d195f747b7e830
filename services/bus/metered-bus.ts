/** The bus as the relay publishes to it, counted: messages acknowledged, publishes refused or unanswered. */
import type { Metrics } from '../http/metrics';
import type { Bus } from './bus.port';

export function meteredBus(bus: Bus, metrics: Metrics): Bus {
  return {
    async publish(topic, messages) {
      try {
        await bus.publish(topic, messages);
      } catch (err) {
        metrics.busFailures.inc();
        throw err;
      }
      metrics.busMessages.inc(messages.length);
    },
    subscribe: (group, topic, handler, options) => bus.subscribe(group, topic, handler, options),
    ...(bus.ping ? { ping: () => bus.ping!() } : {}),
    close: () => bus.close(),
  };
}
