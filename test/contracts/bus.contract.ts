/**
 * What every bus adapter must do alike. Topics and groups get random names so the suite can share a broker.
 */
import { randomUUID } from 'node:crypto';
import type { Bus, BusConsumer, ConsumedMessage } from '../../services/bus/bus.port';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what: string, condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export function busContract(name: string, open: () => Promise<Bus>): void {
  describe(`bus contract: ${name}`, () => {
    jest.setTimeout(60_000);
    let bus: Bus;
    const consumers: BusConsumer[] = [];

    const unique = (label: string) => `contract-${label}-${randomUUID().slice(0, 8)}`;
    const subscribe = async (...args: Parameters<Bus['subscribe']>) => {
      const consumer = await bus.subscribe(...args);
      consumers.push(consumer);
      return consumer;
    };
    /** Subscribes a handler that records every message it is given (taking `delayMs` over each). */
    const collect = async (group: string, topic: string, fromBeginning: boolean, delayMs = 0) => {
      const seen: ConsumedMessage[] = [];
      const handler = async (m: ConsumedMessage) => {
        if (delayMs) await sleep(delayMs);
        seen.push(m);
      };
      const consumer = await subscribe(group, topic, handler, { fromBeginning });
      return { seen, consumer, values: () => seen.map((m) => m.value) };
    };

    beforeAll(async () => {
      bus = await open();
    });
    afterEach(async () => {
      await Promise.all(consumers.splice(0).map((c) => c.stop()));
    });
    afterAll(async () => {
      await bus?.close();
    });

    it('delivers each key in publish order, with its key, value and headers', async () => {
      const topic = unique('order');
      const keys = ['k1', 'k2', 'k3'];
      for (let batch = 0; batch < 4; batch++) {
        await bus.publish(
          topic,
          Array.from({ length: 15 }, (_, i) => {
            const key = keys[i % 3];
            return { key, value: `${key}:${batch * 5 + Math.floor(i / 3)}`, headers: { 'event-type': 'test' } };
          }),
        );
      }
      const { seen } = await collect(unique('g'), topic, true);
      await waitFor('60 messages', () => seen.length >= 60);
      for (const key of keys) {
        const values = seen.filter((m) => m.key === key).map((m) => m.value);
        expect(values).toEqual(Array.from({ length: 20 }, (_, i) => `${key}:${i}`));
      }
      expect(seen[0]).toMatchObject({ topic, headers: { 'event-type': 'test' } });
      expect(typeof seen[0].partition).toBe('number');
      expect(seen[0].offset).toMatch(/^\d+$/);
    });

    it('hands a message without headers over with no headers', async () => {
      const topic = unique('plain');
      await bus.publish(topic, [{ key: 'k', value: 'v' }]);
      const { seen } = await collect(unique('g'), topic, true);
      await waitFor('the message', () => seen.length === 1);
      expect(seen[0].headers ?? {}).toEqual({});
    });

    it('a new consumer of the group continues after the committed offsets, without repeats or gaps', async () => {
      const topic = unique('commit');
      const group = unique('g');
      const all = Array.from({ length: 10 }, (_, i) => `m${i}`);
      await bus.publish(topic, all.map((value) => ({ key: 'same', value })));

      const first = await collect(group, topic, true, 50);
      await waitFor('4 messages', () => first.seen.length >= 4);
      await first.consumer.stop();
      const handledByFirst = first.values();
      expect(handledByFirst.length).toBeLessThan(all.length);
      expect(handledByFirst).toEqual(all.slice(0, handledByFirst.length));

      const second = await collect(group, topic, true);
      await waitFor('the rest', () => handledByFirst.length + second.seen.length >= all.length);
      await sleep(300);
      expect([...handledByFirst, ...second.values()]).toEqual(all);
    });

    it('gives every group every message', async () => {
      const topic = unique('groups');
      await bus.publish(topic, [1, 2, 3, 4, 5].map((i) => ({ key: `k${i}`, value: `v${i}` })));
      const a = await collect(unique('a'), topic, true);
      const b = await collect(unique('b'), topic, true);
      await waitFor('both groups', () => a.seen.length >= 5 && b.seen.length >= 5);
      expect(a.values().sort()).toEqual(['v1', 'v2', 'v3', 'v4', 'v5']);
      expect(b.values().sort()).toEqual(['v1', 'v2', 'v3', 'v4', 'v5']);
    });

    it('keeps the messages a stopped group has not consumed while another group consumes everything', async () => {
      const topic = unique('keep');
      const slowGroup = unique('slow');
      const slow = await collect(slowGroup, topic, true);
      const fast = await collect(unique('fast'), topic, true);
      await bus.publish(topic, ['a1', 'a2', 'a3'].map((value) => ({ key: 'k', value })));
      await waitFor('both groups', () => slow.seen.length >= 3 && fast.seen.length >= 3);
      await slow.consumer.stop();
      await bus.publish(topic, ['b1', 'b2', 'b3'].map((value) => ({ key: 'k', value })));
      await waitFor('the fast group', () => fast.seen.length >= 6);
      const resumed = await collect(slowGroup, topic, true);
      await waitFor('the slow group\'s backlog', () => resumed.seen.length >= 3);
      await sleep(300);
      expect(resumed.values()).toEqual(['b1', 'b2', 'b3']);
    });

    it('redelivers a message whose handler failed, before anything after it', async () => {
      const topic = unique('retry');
      const attempts: string[] = [];
      let failed = false;
      await subscribe(
        unique('g'),
        topic,
        async (m) => {
          attempts.push(m.value);
          if (m.value === 'two' && !failed) {
            failed = true;
            throw new Error('transient');
          }
        },
        { fromBeginning: true },
      );
      await bus.publish(topic, ['one', 'two', 'three'].map((value) => ({ key: 'k', value })));
      await waitFor('three handled', () => attempts.includes('three'));
      expect(attempts).toEqual(['one', 'two', 'two', 'three']);
    });

    it('starts a new group at the beginning or at the end, as asked', async () => {
      const topic = unique('start');
      await bus.publish(topic, [{ key: 'k', value: 'old' }]);
      const fromStart = await collect(unique('begin'), topic, true);
      const fromEnd = await collect(unique('end'), topic, false);
      await bus.publish(topic, [{ key: 'k', value: 'new' }]);
      await waitFor('new in both', () => fromStart.values().includes('new') && fromEnd.values().includes('new'));
      expect(fromStart.values()).toEqual(['old', 'new']);
      expect(fromEnd.values()).toEqual(['new']);
    });

    it('stop() resolves only after the in-flight handler finished', async () => {
      const topic = unique('stop');
      let started = false;
      let finished = false;
      const consumer = await subscribe(
        unique('g'),
        topic,
        async () => {
          started = true;
          await sleep(300);
          finished = true;
        },
        { fromBeginning: true },
      );
      await bus.publish(topic, [{ key: 'k', value: 'slow' }]);
      await waitFor('the handler to start', () => started);
      await consumer.stop();
      expect(finished).toBe(true);
    });
  });
}
