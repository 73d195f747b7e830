import pino from 'pino';
import { PollingWorker } from '../../services/dispatcher/polling-worker';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Each tick reads for `readingMs`, then spends `claimingMs` on what is not a read (claims waiting for their turn). */
class Probe extends PollingWorker {
  readonly ticks: number[] = [];

  constructor(private readonly readingMs: number, private readonly claimingMs: number) {
    super({ pollMs: 60_000, maxInFlight: 1, maxInFlightPerGroup: 1 }, pino({ level: 'silent' }), 'probe');
  }

  protected async tick(): Promise<void> {
    this.ticks.push(Date.now());
    await this.read(() => sleep(this.readingMs));
    await sleep(this.claimingMs);
  }
}

/** Starts the worker, wakes it once its first tick is over, and says how long the next tick took to start. */
async function wakeUpDelay(worker: Probe, firstTickMs: number): Promise<number> {
  worker.start();
  await sleep(firstTickMs + 100);
  const woken = Date.now();
  worker.wake();
  while (worker.ticks.length < 2) await sleep(5);
  await worker.stop();
  return worker.ticks[1] - woken;
}

describe('PollingWorker', () => {
  it('looks again at once when woken after a tick whose time went to other than reads', async () => {
    expect(await wakeUpDelay(new Probe(0, 1000), 1000)).toBeLessThan(500);
  });

  it('waits as long as the last tick spent reading before it looks again when woken', async () => {
    expect(await wakeUpDelay(new Probe(400, 0), 400)).toBeGreaterThanOrEqual(350);
  });
});
