#!/usr/bin/env node
/**
 * The operator and analyst CLI (`npx calendar-service …`, `npm run cli -- …`). Exit codes: 0 done, 1 failed,
 * 2 usage (unknown command or option, a bad value, options that do not go together), each failure one line on stderr.
 * Results go to stdout; progress bars and messages to stderr.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command, CommanderError } from 'commander';
import { UsageError } from './context';
import { eventsCommands } from './events';
import { icalCommands } from './ical';
import { projectionsCommands } from './projections';
import { stateCommands } from './state';
import { usersCommands } from './users';

/** Each group registers its commands on the program: a new group is one module and one line here. */
const COMMAND_GROUPS: ReadonlyArray<(program: Command) => void> = [
  eventsCommands, icalCommands, projectionsCommands, stateCommands, usersCommands,
];

const USAGE = 2;

/** This package's version, from the package.json above this file (in the sources or under dist/). */
function packageVersion(): string {
  for (let dir = __dirname; dir !== path.dirname(dir); dir = path.dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'calendar-service' && pkg.version) return pkg.version;
    } catch {
      // no package.json at this level
    }
  }
  return 'unknown';
}

export function buildProgram(): Command {
  const program = new Command('calendar-service')
    .description(
      'Operate and analyse the calendar service: export, query and replay its event log; follow and rebuild ' +
        'projections; read any state as it was at an instant; erase a user; import an .ics file.\nReads the configuration from the environment, as the service does (DATA_DIR, ' +
        'EVENTSTORE_URL, MONGO_URL, KAFKA_BROKERS, ADMIN_TOKEN, ADMIN_URL).',
    )
    .version(packageVersion())
    .option('--progress', 'show progress bars on stderr even when it is not a terminal')
    .option('--no-progress', 'never show progress bars')
    .exitOverride();
  for (const register of COMMAND_GROUPS) register(program);
  return program;
}

async function main(argv: string[]): Promise<void> {
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0); // the reader went away (`| head`)
  });
  try {
    await buildProgram().parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      // commander printed the message (or the help/version) already
      process.exitCode = err.exitCode === 0 ? 0 : USAGE;
    } else if (err instanceof UsageError) {
      process.stderr.write(`error: ${err.message}\n`);
      process.exitCode = USAGE;
    } else {
      process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    }
  }
}

if (require.main === module) void main(process.argv);
