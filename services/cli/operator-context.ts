/**
 * What `state` and `users erase` run the service's own code on: the configured stores, the log as readers see it
 * (opened with the users' keys, upcast), the read models, and the command handler, wired as the composition root
 * wires them. `catchUp` runs the service's projections (each through `erasable()`) until they applied a position,
 * for when no service is running to apply it.
 */
import pino from 'pino';
import type { AppContext } from '../app-context';
import type { Config } from '../config';
import { ApiError } from '../errors';
import { CliError, config, eventLog, readModels, UsageError } from './context';

export type OperatorContext = Pick<AppContext, 'config' | 'events' | 'store' | 'userKeys' | 'commands' | 'readModels' | 'watermarks' | 'projectionNames'>;

export async function withOperatorContext<T>(use: (app: OperatorContext) => Promise<T>): Promise<T> {
  const cfg: Config = config();
  const [raw, store] = [await eventLog(cfg), await readModels(cfg)];
  try {
    const [{ historyStore }, { CommandHandler }, { ReadModels }, { Watermarks }, { PROJECTIONS }] = await Promise.all([
      import('../eventstore/decoding-event-store'), import('../commands/command-handler'), import('../../projections/read-models'),
      import('../../projections/watermarks'), import('../composition'),
    ]);
    const history = historyStore(raw, store);
    // In-process: a runner started by catchUp announces its positions to these watermarks.
    const watermarks = new Watermarks(store, true);
    return await use({
      config: cfg,
      events: history.events,
      store,
      userKeys: history.keys,
      commands: new CommandHandler(history.events),
      readModels: new ReadModels(store, watermarks),
      watermarks,
      projectionNames: PROJECTIONS.map((p) => p.name),
    });
  } finally {
    await raw.close();
    await store.close();
  }
}

/** Applies the log up to `position` into every projection, as the service's projector would; false after the timeout. */
export async function catchUp(app: OperatorContext, position: number, timeoutMs: number): Promise<boolean> {
  const [{ PROJECTIONS }, { erasable }, { ProjectionRunner }] = await Promise.all([
    import('../composition'), import('../history/erasable-projection'), import('../../projections/runner'),
  ]);
  const log = pino({ level: 'warn' }, pino.destination(2));
  const runner = new ProjectionRunner(app.events, app.store, PROJECTIONS.map((p) => erasable(p, app.store)), app.watermarks, log);
  await runner.start();
  try {
    return await app.watermarks.waitFor(app.projectionNames, position, timeoutMs);
  } finally {
    await runner.stop();
  }
}

/** The service's typed failures as the CLI reports them: bad input is a usage error, anything else a failure. */
export function fromApiError(err: unknown): unknown {
  if (!(err instanceof ApiError)) return err;
  return err.status === 400 ? new UsageError(err.message) : new CliError(err.message);
}
