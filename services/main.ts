/** `npm start`: every role in one process on the embedded stores, or the roles and engines the environment sets. */
import pino from 'pino';
import { loadConfig } from './config';
import { startService } from './composition';
import { boundHeapGrowth } from './heap-growth';

async function main(): Promise<void> {
  const config = loadConfig();
  boundHeapGrowth(config.HEAP_GROWING_PERCENT);
  const log = pino({ level: config.LOG_LEVEL });
  const service = await startService(config, log);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    await service.stop();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
