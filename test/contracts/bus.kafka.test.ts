import { randomUUID } from 'node:crypto';
import { openKafkaBus } from '../../services/bus/kafka-bus';
import { describeOnEngine } from '../support/engines';
import { busContract } from './bus.contract';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describeOnEngine('kafka', 'Kafka bus', (brokers) => {
  const list = () =>
    brokers()
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean);

  busContract('kafka', () => openKafkaBus(list(), { clientId: 'bus-contract' }));

  it('replaces a consumer kafkajs gives up on: a handler outlasting the session has its commit refused, gets the message again, then the next', async () => {
    const bus = await openKafkaBus(list(), { clientId: 'bus-session', sessionTimeoutMs: 6000 });
    const topic = `session-${randomUUID().slice(0, 8)}`;
    const seen: string[] = [];
    let slow = true;
    try {
      await bus.subscribe(`session-${randomUUID().slice(0, 8)}`, topic, async (m) => {
        // No heartbeat while a handler runs: past the session the coordinator drops the member.
        if (slow) await sleep(9000);
        slow = false;
        seen.push(m.value);
      }, { fromBeginning: true });
      await bus.publish(topic, [{ key: 'k', value: 'first' }]);
      const deadline = Date.now() + 45_000;
      while (!seen.includes('first') && Date.now() < deadline) await sleep(50);
      await bus.publish(topic, [{ key: 'k', value: 'second' }]);
      while (!seen.includes('second') && Date.now() < deadline) await sleep(50);
      expect(seen).toEqual(['first', 'first', 'second']);
    } finally {
      await bus.close();
    }
  }, 60_000);
});
