/**
 * The tools the model may call. Arguments are validated with zod; proposals go through the common suggestion path
 * (suggestions.ts), so a model's suggestion is checked exactly like the built-in assistant's.
 */
import { z } from 'zod';
import { DateTime, IsoDate, Uuid } from '../../contracts/common';
import { addDays, epochAt, localDate } from './calendar-time';
import { spanLabel } from './format';
import type { ToolCall, ToolSpec } from './model.port';
import { check, type Checked, type Draft } from './suggestions';
import type { AssistantWorld } from './world';

const Title = z.string().trim().min(1).max(500);

export const TOOL_ARGS = {
  create_event: z.strictObject({
    title: Title,
    startsAt: DateTime,
    endsAt: DateTime,
    kind: z.enum(['meeting', 'focus']).optional().describe('focus for focus time; default meeting'),
  }),
  move_event: z.strictObject({
    eventId: Uuid.describe('An id from summarize_day'),
    startsAt: DateTime,
    endsAt: DateTime.optional().describe('Default: keeps the event\'s length'),
  }),
  create_task: z.strictObject({ title: Title, dueAt: DateTime.nullable().optional() }),
  find_free_time: z.strictObject({
    from: IsoDate.optional().describe('First date (default today)'),
    days: z.number().int().min(1).max(14).optional().describe('Default 7'),
    minutes: z.number().int().min(5).max(480).optional().describe('Shortest stretch worth listing (default 30)'),
  }),
  summarize_day: z.strictObject({ date: IsoDate.optional().describe('Default today') }),
};
export type ToolName = keyof typeof TOOL_ARGS;

const DESCRIPTIONS: Record<ToolName, string> = {
  create_event: 'Suggest a new calendar event. The person confirms or cancels it; nothing changes before that.',
  move_event: 'Suggest moving one of the person\'s events to a new time. The person confirms or cancels it.',
  create_task: 'Suggest a new task, with an optional due time. The person confirms or cancels it.',
  find_free_time: 'Free time inside the person\'s working hours, from now on.',
  summarize_day: 'The events (with ids) and tasks due on one day.',
};

function parametersOf(schema: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

export const TOOL_SPECS: ToolSpec[] = (Object.keys(TOOL_ARGS) as ToolName[]).map((name) => ({
  name, description: DESCRIPTIONS[name], parameters: parametersOf(TOOL_ARGS[name]),
}));

const MAX_FREE_LISTED = 50;
const MAX_SUGGESTIONS = 5;
const iso = (ms: number) => new Date(ms).toISOString();

type Args<N extends ToolName> = z.infer<(typeof TOOL_ARGS)[N]>;

function parseArgs<N extends ToolName>(name: N, text: string): { args: Args<N> } | { error: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text || '{}');
  } catch {
    return { error: 'arguments are not JSON' };
  }
  const parsed = TOOL_ARGS[name].safeParse(raw);
  if (parsed.success) return { args: parsed.data as Args<N> };
  return { error: `invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'} ${i.message}`).join('; ')}` };
}

/** Runs the model's tool calls of one turn, collecting checked suggestions; answers what each tool returns. */
export class ToolRunner {
  readonly suggestions: Checked[] = [];

  constructor(private readonly world: AssistantWorld) {}

  async run(call: ToolCall): Promise<unknown> {
    if (!(call.name in TOOL_ARGS)) return { error: `unknown tool ${call.name}` };
    const name = call.name as ToolName;
    const parsed = parseArgs(name, call.arguments);
    if ('error' in parsed) return parsed;
    switch (name) {
      case 'create_event': {
        const a = parsed.args as Args<'create_event'>;
        return this.propose({ kind: 'create_event', title: a.title, eventKind: a.kind ?? 'meeting', start: Date.parse(a.startsAt), end: Date.parse(a.endsAt) });
      }
      case 'move_event': {
        const a = parsed.args as Args<'move_event'>;
        const event = await this.world.event(a.eventId);
        if (!event) return { error: 'no such event in the person\'s calendar' };
        const start = Date.parse(a.startsAt);
        return this.propose({ kind: 'move_event', eventId: event.id, start, end: a.endsAt ? Date.parse(a.endsAt) : start + (event.end - event.start) });
      }
      case 'create_task': {
        const a = parsed.args as Args<'create_task'>;
        return this.propose({ kind: 'create_task', title: a.title, dueAt: a.dueAt ? Date.parse(a.dueAt) : null });
      }
      case 'find_free_time':
        return this.freeTime(parsed.args as Args<'find_free_time'>);
      case 'summarize_day':
        return this.day(parsed.args as Args<'summarize_day'>);
    }
  }

  private async propose(draft: Draft): Promise<unknown> {
    if (this.suggestions.length >= MAX_SUGGESTIONS) return { error: `at most ${MAX_SUGGESTIONS} suggestions per answer` };
    const result = await check(draft, this.world);
    if (!result.ok) return { error: result.reason };
    const same = this.suggestions.find((s) => JSON.stringify(s.proposal) === JSON.stringify(result.checked.proposal));
    if (!same) this.suggestions.push(result.checked);
    return { suggested: result.checked.summary, note: 'The person confirms or cancels this in the app; nothing has changed yet.' };
  }

  private today = () => localDate(this.world.now, this.world.timeZone);

  private async freeTime(a: Args<'find_free_time'>) {
    const tz = this.world.timeZone;
    const from = a.from ?? this.today();
    const range = { start: epochAt(from, 0, tz), end: epochAt(addDays(from, a.days ?? 7), 0, tz) };
    const least = (a.minutes ?? 30) * 60_000;
    const free = (await this.world.freeTime(range)).filter((w) => w.end - w.start >= least);
    return {
      timeZone: tz,
      free: free.slice(0, MAX_FREE_LISTED).map((w) => ({ startsAt: iso(w.start), endsAt: iso(w.end), local: spanLabel(w, tz) })),
    };
  }

  private async day(a: Args<'summarize_day'>) {
    const tz = this.world.timeZone;
    const date = a.date ?? this.today();
    const range = { start: epochAt(date, 0, tz), end: epochAt(addDays(date, 1), 0, tz) };
    const [events, tasks] = await Promise.all([this.world.events(range), this.world.tasksDue(range)]);
    return {
      date,
      timeZone: tz,
      events: events.map((e) => ({
        id: e.id, title: e.title, kind: e.kind, startsAt: iso(e.start), endsAt: iso(e.end), local: spanLabel(e, tz),
        allDay: e.allDay, repeats: e.recurring,
      })),
      tasksDue: tasks.map((t) => ({ id: t.id, title: t.title, dueAt: t.dueAt })),
    };
  }
}
