/** One caller's many expensive requests never stand between another caller and their first. */
import { FairShare } from '../../services/http/fair-share';

/** A request that runs until released, recording when it started. */
function requests(share: FairShare, started: string[]) {
  const releases: Array<() => void> = [];
  const send = (caller: string, name = caller) =>
    share.run(caller, () => new Promise<{ status: number; body: string }>((resolve) => {
      started.push(name);
      releases.push(() => resolve({ status: 200, body: name }));
    }));
  const releaseOldest = async () => {
    releases.shift()!();
    await settle();
  };
  return { send, releaseOldest };
}

/** A few turns of the event loop: places are handed over, and work begins, on later turns. */
async function settle() {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
}

describe('fair shares of expensive requests', () => {
  it('runs a caller\'s first ones, queues a few more, and refuses the rest at once with 429 and Retry-After', async () => {
    const started: string[] = [];
    const share = new FairShare({ perCaller: 2, total: 10, queuePerCaller: 2, maxWaitMs: 60_000 });
    const { send, releaseOldest } = requests(share, started);
    const answers = [1, 2, 3, 4, 5].map((i) => send('a', `a${i}`));
    await settle();
    expect(started).toEqual(['a1', 'a2']);
    const refused = await answers[4];
    expect(refused).toMatchObject({ status: 429, headers: { 'Retry-After': '1' }, body: { error: { code: 'too_many_concurrent_requests' } } });
    await releaseOldest();
    expect(started).toEqual(['a1', 'a2', 'a3']);
    expect(await answers[0]).toEqual({ status: 200, body: 'a1' });
  });

  it('gives another caller a place while the first one is at its bound', async () => {
    const started: string[] = [];
    const share = new FairShare({ perCaller: 2, total: 3, queuePerCaller: 10, maxWaitMs: 60_000 });
    const { send } = requests(share, started);
    for (let i = 1; i <= 6; i++) void send('a', `a${i}`);
    void send('b', 'b1');
    await settle();
    expect(started).toEqual(['a1', 'a2', 'b1']);
  });

  it('hands a freed place to the waiting caller running fewest, then in turn', async () => {
    const started: string[] = [];
    const share = new FairShare({ perCaller: 2, total: 2, queuePerCaller: 10, maxWaitMs: 60_000 });
    const { send, releaseOldest } = requests(share, started);
    for (let i = 1; i <= 5; i++) void send('a', `a${i}`);
    void send('b', 'b1');
    void send('b', 'b2');
    void send('c', 'c1');
    await settle();
    expect(started).toEqual(['a1', 'a2']);
    await releaseOldest(); // a1: a runs one, b and c none: b waited first
    await releaseOldest(); // a2: a runs none now, as c: c, which was not served yet
    expect(started).toEqual(['a1', 'a2', 'b1', 'c1']);
    await releaseOldest(); // b1 frees: a runs none, b none, c one: a waited longest
    await releaseOldest(); // c1 frees: b
    expect(started).toEqual(['a1', 'a2', 'b1', 'c1', 'a3', 'b2']);
  });

  it('tells a request that waited too long 503 with Retry-After, and forgets idle callers', async () => {
    jest.useFakeTimers();
    try {
      const started: string[] = [];
      const share = new FairShare({ perCaller: 1, total: 1, queuePerCaller: 5, maxWaitMs: 3000 });
      const { send } = requests(share, started);
      void send('a');
      const late = send('b');
      await jest.advanceTimersByTimeAsync(3000);
      expect(await late).toMatchObject({ status: 503, headers: { 'Retry-After': '3' }, body: { error: { code: 'overloaded' } } });
      expect((share as unknown as { lines: Map<string, unknown> }).lines.has('b')).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  it('a failing request gives its place back', async () => {
    const share = new FairShare({ perCaller: 1, total: 1, queuePerCaller: 1, maxWaitMs: 60_000 });
    await expect(share.run('a', () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await share.run('a', async () => ({ status: 200 }))).toEqual({ status: 200 });
  });
});
