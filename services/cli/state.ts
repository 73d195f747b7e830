/**
 * `state --as-of <instant> <what>`: an aggregate or a read model as it was at an instant, answered by the history
 * slice (services/history/as-of.ts) on the configured stores, the same code as `asOf=` on the API:
 *   events|tasks|routines --user <id>   a user's list read as GET /events, /tasks, /routines?asOf= answers it
 *   event|task|routine <id>             one item's read-model document as its projection had it then
 *   stream <streamId>                   the aggregate's state folded by its decider up to the instant
 */
import { InvalidArgumentError, type Command } from 'commander';
import type { z } from 'zod';
import { Uuid } from '../../contracts/common';
import { EVENTS_PAGE_SIZE, ListEventsQuery } from '../../contracts/events';
import { ListRoutinesQuery } from '../../contracts/routines';
import { ListTasksQuery } from '../../contracts/tasks';
import { fieldOrderIssues } from '../http/field-order';
import { UsageError } from './context';
import { fromApiError, withOperatorContext, type OperatorContext } from './operator-context';
import { collect, instant } from './options';
import { renderTable, writeLine } from './output';

interface StateOptions {
  asOf: number;
  json?: boolean;
}

interface ListOptions {
  user: string;
  json?: boolean;
  limit?: string;
  pageToken?: string;
  [query: string]: unknown;
}

type Row = Record<string, unknown>;

interface ListRead {
  what: 'events' | 'tasks' | 'routines';
  schema: z.ZodType;
  columns: Array<[header: string, field: string]>;
  read(app: OperatorContext, userId: string, asOf: string, query: never): Promise<{ items: Row[]; nextPageToken: string | null }>;
}

function userId(value: string): string {
  if (!Uuid.safeParse(value).success) throw new InvalidArgumentError('Expected a user id (a UUID).');
  return value;
}

/** Option flags by query field, for messages. */
const FLAGS: Record<string, string> = { pageToken: '--page-token', from: '--from', to: '--to', space: '--space', status: '--status', limit: '--limit' };

/** The CLI's options as the HTTP query, checked by the same schema and field order: one line naming the option. */
function parseQuery<T>(schema: z.ZodType<T>, raw: Record<string, unknown>): T {
  const parsed = schema.safeParse(Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)));
  const [issue] = parsed.success
    ? fieldOrderIssues(schema, parsed.data, 'query').map((i) => ({ field: i.path.split('.').pop()!, message: i.message }))
    : parsed.error.issues.map((i) => ({ field: String(i.path[0] ?? ''), message: i.message }));
  if (issue) throw new UsageError(`${FLAGS[issue.field] ?? issue.field}: ${issue.message}`);
  return parsed.data!;
}

/** The instant of `--as-of`, refused in the future as `asOf=` is. */
async function pastInstantOf(ms: number): Promise<string> {
  const { pastInstant } = await import('../history/time-travel');
  return pastInstant(new Date(ms).toISOString(), '--as-of');
}

async function answer<T>(asOfMs: number, run: (app: OperatorContext, asOf: string) => Promise<T>): Promise<T> {
  try {
    const asOf = await pastInstantOf(asOfMs);
    return await withOperatorContext((app) => run(app, asOf));
  } catch (err) {
    throw fromApiError(err);
  }
}

const LISTS: ListRead[] = [
  {
    what: 'events',
    schema: ListEventsQuery,
    columns: [['STARTS', 'startsAt'], ['ENDS', 'endsAt'], ['TITLE', 'title'], ['ID', 'id']],
    async read(app, user, asOf, query: z.infer<typeof ListEventsQuery>) {
      const { eventsAsOf } = await import('../history/as-of');
      const spaces = query.space === undefined ? undefined : [query.space].flat();
      const page = { from: Date.parse(query.from), to: Date.parse(query.to), spaces, limit: query.limit ?? EVENTS_PAGE_SIZE, pageToken: query.pageToken };
      const body = JSON.parse((await eventsAsOf(app, user, asOf, page)).toString('utf8')) as { events: Row[]; nextPageToken: string | null };
      return { items: body.events, nextPageToken: body.nextPageToken };
    },
  },
  {
    what: 'tasks',
    schema: ListTasksQuery,
    columns: [['STATUS', 'status'], ['DUE', 'dueAt'], ['TITLE', 'title'], ['ID', 'id']],
    async read(app, user, asOf, query: ListTasksQuery) {
      const { tasksAsOf } = await import('../history/as-of');
      const body = await tasksAsOf(app, user, asOf, query);
      return { items: body.tasks, nextPageToken: body.nextPageToken };
    },
  },
  {
    what: 'routines',
    schema: ListRoutinesQuery,
    columns: [['NAME', 'name'], ['TYPE', 'type'], ['ACTIVE', 'isActive'], ['ID', 'id']],
    async read(app, user, asOf, query: z.infer<typeof ListRoutinesQuery>) {
      const { routinesAsOf } = await import('../history/as-of');
      const body = await routinesAsOf(app, user, asOf, query);
      return { items: body.routines as unknown as Row[], nextPageToken: body.nextPageToken };
    },
  },
];

const cell = (value: unknown) => (value === null || value === undefined ? '-' : String(value));

function listCommand(state: Command, list: ListRead): Command {
  return state
    .command(list.what)
    .description(`the user's ${list.what} as GET /${list.what}?asOf= answers them (one page)`)
    .requiredOption('--user <id>', 'whose read (their Spaces, boards and routines as they are now)', userId)
    .option('--limit <n>', 'page size (as the API allows)')
    .option('--page-token <token>', 'nextPageToken of the previous page')
    .option('--json', 'print the answer as JSON')
    .action(async (o: ListOptions, command: Command) => {
      const { asOf: asOfMs } = command.optsWithGlobals<StateOptions>();
      const { user, json, ...raw } = o;
      const query = parseQuery(list.schema, raw);
      const { asOf, page } = await answer(asOfMs, async (app, at) => ({ asOf: at, page: await list.read(app, user, at, query as never) }));
      if (json) {
        writeLine(JSON.stringify({ what: list.what, userId: user, asOf, [list.what]: page.items, nextPageToken: page.nextPageToken }, null, 2));
        return;
      }
      writeLine(`${list.what} of user ${user} as of ${asOf}: ${page.items.length}`);
      if (page.items.length > 0) {
        writeLine(renderTable(list.columns.map(([h]) => h), page.items.map((item) => list.columns.map(([, f]) => cell(item[f])))));
      }
      if (page.nextPageToken) writeLine(`more: add --page-token ${page.nextPageToken}`);
    });
}

/** `event <id>` reads the `events` model, and so on. */
const ITEMS: Array<[command: string, model: string]> = [['event', 'events'], ['task', 'tasks'], ['routine', 'routines']];

async function printState(what: string, id: string, asOfMs: number, json: boolean | undefined): Promise<void> {
  const { stateAsOf } = await import('../history/as-of');
  const result = await answer(asOfMs, (app, asOf) => stateAsOf(app, what, id, asOf));
  if (json) return writeLine(JSON.stringify(result, null, 2));
  const where = result.position === null ? 'no event yet' : `last event at position ${result.position}`;
  writeLine(`${what === 'stream' ? 'stream' : what.replace(/s$/, '')} ${id} as of ${result.asOf} (${where})`);
  writeLine(result.state === null ? 'did not exist then' : JSON.stringify(result.state, null, 2));
}

export function stateCommands(program: Command): void {
  const state = program
    .command('state')
    .description('an aggregate or a read model as it was at an instant (time travel over the event log)')
    .requiredOption('--as-of <instant>', 'the instant: ISO 8601 with its offset, or a date meaning its UTC midnight; not in the future', instant)
    .addHelpText(
      'after',
      '\nWhat:\n' +
        '  events --user <id> --from <instant> --to <instant> [--space <id>]   a user\'s events in [from, to), as GET /events?asOf=\n' +
        '  tasks --user <id> [--status <status>]                               as GET /tasks?asOf=\n' +
        '  routines --user <id>                                                as GET /routines?asOf=\n' +
        '  event <id> | task <id> | routine <id>                               one item as its read model had it\n' +
        '  stream <streamId>                                                   an aggregate folded by its decider\n' +
        '                                                                      (space-, tasks-, routines-, user-, goals-, focus-, email-, username-)\n' +
        'Lists take --limit and --page-token as the API does; every form takes --json (after <what>). Runs on the configured stores; the service may be running.\n\n' +
        'Example:\n  calendar-service state --as-of 2026-03-01T09:00:00Z tasks --user 3f6c…\n',
    );

  for (const list of LISTS) listCommand(state, list);
  const events = state.commands.find((c) => c.name() === 'events')!;
  events
    .requiredOption('--from <instant>', 'start of the range (ISO 8601 with its offset)')
    .requiredOption('--to <instant>', 'end of the range, excluded (at most 366 days after --from)')
    .option('--space <id>', 'only this Space (repeatable)', collect);
  state.commands.find((c) => c.name() === 'tasks')!.option('--status <status>', 'only tasks with this status');

  for (const [command, model] of ITEMS) {
    state
      .command(command)
      .description(`one ${command}'s read-model document as it was (null before it existed)`)
      .argument('<id>', `the ${command}'s id`)
      .option('--json', 'print the answer as JSON')
      .action((id: string, _o: unknown, command: Command) => {
        const { asOf, json } = command.optsWithGlobals<StateOptions>();
        return printState(model, id, asOf, json);
      });
  }

  state
    .command('stream')
    .description("an aggregate's state folded by its decider from its stream's events up to the instant")
    .argument('<streamId>', 'e.g. space-<spaceId>, tasks-<userId>, routines-<userId>, user-<userId>')
    .option('--json', 'print the answer as JSON')
    .action((id: string, _o: unknown, command: Command) => {
      const { asOf, json } = command.optsWithGlobals<StateOptions>();
      return printState('stream', id, asOf, json);
    });
}
