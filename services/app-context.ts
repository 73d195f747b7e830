import type { Logger } from 'pino';
import type { ReadModels } from '../projections/read-models';
import type { Watermarks } from '../projections/watermarks';
import type { Sessions } from '../write-api/accounts/sessions';
import type { ApiKeys } from '../write-api/api-keys/api-keys';
import type { OAuth } from '../write-api/oauth/oauth';
import type { CommandHandler } from './commands/command-handler';
import type { Config } from './config';
import type { EventStore } from './eventstore/event-store.port';
import type { Keyring } from './keyring';
import type { ReadStore } from './readstore/read-store.port';

/** What route handlers may use: the ports and the shared services built by the composition root. */
export interface AppContext {
  config: Config;
  log: Logger;
  events: EventStore;
  store: ReadStore;
  commands: CommandHandler;
  watermarks: Watermarks;
  readModels: ReadModels;
  sessions: Sessions;
  apiKeys: ApiKeys;
  oauth: OAuth;
  /** SERVER_SECRET's keys: sign sync cursors, encrypt webhook secrets and stored idempotent replies. */
  serverKeys: Keyring;
  /** Names of the projections reads depend on (waited for by X-Calendar-Min-Position). */
  projectionNames: readonly string[];
}
