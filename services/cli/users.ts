/**
 * `users erase <id>`: crypto-shredding erasure by the history slice's `eraseUser`, the code behind
 * `POST /admin/users/{id}/erase`. On the stores directly (the service stopped), the command then runs the service's
 * projections until they applied `user.erased`, so the read models have dropped the user's rows when it returns;
 * with `--service` the running service does all of it.
 */
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { InvalidArgumentError, type Command } from 'commander';
import { Uuid } from '../../contracts/common';
import type { Erased } from '../history/erasure';
import { adminClient } from './admin-client';
import { CliError, config } from './context';
import { catchUp, fromApiError, withOperatorContext, type OperatorContext } from './operator-context';
import { positiveInteger } from './options';
import { writeLine } from './output';

interface EraseOptions {
  yes?: boolean;
  json?: boolean;
  service?: boolean;
  timeout: number;
}

type Outcome = Erased & { applied: boolean };

function userId(value: string): string {
  if (!Uuid.safeParse(value).success) throw new InvalidArgumentError('Expected a user id (a UUID).');
  return value;
}

/** Asks on stderr and reads one line from stdin; no answer (stdin closed) is a no. */
async function confirmed(id: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
  process.stderr.write(
    `Erase user ${id}? Their key is destroyed: every event holding their data becomes unreadable for good, and ` +
      'their read-model rows, sessions, API keys and webhooks go. Type "yes" to erase: ',
  );
  const answer = await Promise.race([once(rl, 'line').then(([line]) => String(line)), once(rl, 'close').then(() => '')]);
  rl.close();
  if (!process.stdin.isTTY) process.stderr.write('\n');
  return /^\s*y(es)?\s*$/i.test(answer);
}

async function requireKnown(app: OperatorContext, id: string): Promise<void> {
  const { USER_KEYS } = await import('../eventstore/user-keys');
  if (!(await app.store.collection(USER_KEYS).get(id))) throw new CliError(`no user ${id} in the read store (nothing to erase)`);
}

async function eraseOnStores(id: string, o: EraseOptions): Promise<Outcome> {
  const { eraseUser } = await import('../history/erasure');
  return withOperatorContext(async (app) => {
    await requireKnown(app, id);
    if (!o.yes && !o.json && !(await confirmed(id))) throw new CliError(`not confirmed: user ${id} was not erased`);
    const erased = await eraseUser(app, id);
    return { ...erased, applied: await catchUp(app, erased.position, o.timeout * 1000) };
  });
}

async function eraseThroughService(id: string, o: EraseOptions): Promise<Outcome> {
  const client = adminClient(config());
  if (!o.yes && !o.json && !(await confirmed(id))) throw new CliError(`not confirmed: user ${id} was not erased`);
  return client.call<Outcome>('POST', `/users/${id}/erase`);
}

export function usersCommands(program: Command): void {
  const users = program.command('users').description("users' personal data");

  users
    .command('erase')
    .description(
      "erase a user (crypto-shredding): destroy their key, delete their credentials, webhooks and pushes, append " +
        'user.erased and let every projection drop their rows; the log keeps the events, without their data',
    )
    .argument('<id>', 'the user id', userId)
    .option('--yes', 'do not ask for confirmation')
    .option('--json', 'print the outcome as JSON (does not ask)')
    .option('--service', 'ask the running service (POST /admin/users/<id>/erase, ADMIN_URL and ADMIN_TOKEN) instead of opening the stores')
    .option('--timeout <seconds>', 'how long the projections may take to apply the erasure (without --service)', positiveInteger, 600)
    .addHelpText(
      'after',
      '\nWithout --service it opens the stores (DATA_DIR, or EVENTSTORE_URL and MONGO_URL) and then runs the projections ' +
        'until they applied the erasure: run it with the service stopped. While the service runs, pass --service ' +
        '(the embedded read store is held by the service\'s process). See docs/history.md.\n',
    )
    .action(async (id: string, o: EraseOptions) => {
      let outcome: Outcome;
      try {
        outcome = o.service ? await eraseThroughService(id, o) : await eraseOnStores(id, o);
      } catch (err) {
        throw fromApiError(err);
      }
      if (o.json) writeLine(JSON.stringify(outcome));
      else {
        writeLine(
          `erased user ${id} at ${outcome.erasedAt}: key destroyed, credentials, webhooks and pushes deleted, ` +
            `user.erased at log position ${outcome.position}`,
        );
        writeLine(outcome.applied ? 'read models: every projection applied it and dropped the rows' : 'read models: not yet applied');
      }
      if (!outcome.applied) {
        throw new CliError(`the projections had not applied position ${outcome.position} in time; they drop the rows when they reach it`);
      }
    });
}
