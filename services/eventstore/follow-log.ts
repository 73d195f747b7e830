/**
 * Follows the global log for as long as it runs: when the subscription fails (the store dropped the connection, a
 * handler's write failed), it is opened again after a growing pause, from the position the caller has reached.
 * A failed projector or relay so heals itself instead of idling without a sign.
 */
import type { Logger } from 'pino';
import type { EventStore, RecordedEvent, Subscription } from './event-store.port';
import { Backoff } from '../backoff';

const FIRST_PAUSE_MS = 100;
/**
 * A projection whose store cannot be reached ends its subscription here (it never dead-letters for that), so this
 * bounds how long it stays behind once the store is back; one attempt every few seconds costs an outage nothing.
 */
const LONGEST_PAUSE_MS = 5_000;

export interface LogFollower {
  stop(): Promise<void>;
}

export function followLog(
  events: EventStore,
  reached: () => number,
  handler: (event: RecordedEvent) => Promise<void>,
  log: Logger,
  label: string,
): LogFollower {
  let sub: Subscription | null = null;
  let stopped = false;
  const backoff = new Backoff(FIRST_PAUSE_MS, LONGEST_PAUSE_MS);
  let timer: NodeJS.Timeout | null = null;

  const open = (): void => {
    if (stopped) return;
    sub = events.subscribeAll(reached(), async (e) => {
      await handler(e);
      backoff.reset();
    });
    sub.done.then(
      () => undefined,
      (err) => {
        if (stopped) return;
        const retryInMs = backoff.pause();
        log.error({ err, follower: label, retryInMs }, 'log subscription failed; resubscribing');
        timer = setTimeout(open, retryInMs);
      },
    );
  };
  open();

  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await sub?.stop();
    },
  };
}
