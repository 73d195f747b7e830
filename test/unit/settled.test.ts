/** The fault suites' wait (test/support/settled.ts): it outlasts a slow system and gives up on a stuck one. */
import { untilSettled } from '../support/settled';

it('waits past the stall bound for as long as the progress moves', async () => {
  let step = 0;
  const started = Date.now();
  const value = await untilSettled('slow', async () => ({ done: ++step === 12, progress: step, value: 'there' }), 50, 10);
  expect(value).toBe('there');
  expect(Date.now() - started).toBeGreaterThan(50); // longer in all than the bound on a stall
});

it('fails once the progress stayed the same for the stall bound, naming where it stopped', async () => {
  let looks = 0;
  await expect(untilSettled('stuck', async () => ({ done: false, progress: { position: 7, looks: ++looks > 3 ? 'same' : looks } }), 50, 10))
    .rejects.toThrow('stuck: no progress for 50 ms, stuck at {"position":7,"looks":"same"}');
});
