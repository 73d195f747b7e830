/**
 * The model assistant: an OpenAI-compatible chat model that proposes the same suggestions through tool calls.
 * Each tool call is validated and run (tools.ts); the model sees the results and answers in words. Bounded rounds.
 */
import { localDate, zonedText } from './calendar-time';
import type { Answer } from './builtin';
import { dateLabel } from './format';
import { ModelError, type ChatMessage, type ChatModel } from './model.port';
import { TOOL_SPECS, ToolRunner } from './tools';
import type { AssistantWorld } from './world';

const MAX_ROUNDS = 4;

export interface Turn {
  role: 'user' | 'assistant';
  text: string;
}

function systemPrompt(world: AssistantWorld): string {
  const p = world.preferences;
  return [
    'You are the scheduling assistant of a calendar and planning app.',
    `The person's time zone is ${world.timeZone}; it is now ${zonedText(world.now, world.timeZone)} (${dateLabel(localDate(world.now, world.timeZone))}).`,
    `Focus time goes in the ${p.focusPeriod} and lasts ${p.focusMinutes} minutes, meetings last ${p.meetingMinutes} minutes, unless the person says otherwise.`,
    'create_event, move_event and create_task only suggest changes: the person confirms or cancels each one in the app, so never say a change is made.',
    'Look at find_free_time before suggesting a time, and at summarize_day to find events and their ids.',
    'Write times as ISO 8601 with the UTC offset. Answer briefly, in plain text.',
  ].join('\n');
}

/** What the model says after its last tool call; its own words when it gave some. */
function closing(content: string | null, runner: ToolRunner): string {
  const text = content?.trim();
  if (text) return text;
  if (runner.suggestions.length) return `I suggest: ${runner.suggestions.map((s) => s.summary).join('; ')}. Confirm or cancel each.`;
  throw new ModelError('the model answered neither text nor a suggestion');
}

export async function modelAnswer(model: ChatModel, text: string, history: Turn[], world: AssistantWorld): Promise<Answer> {
  const messages: ChatMessage[] = [
    { role: 'system', content: systemPrompt(world) },
    ...history.map((t) => ({ role: t.role, content: t.text })),
    { role: 'user', content: text },
  ];
  const runner = new ToolRunner(world);
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    const turn = await model.complete(messages, round === MAX_ROUNDS ? [] : TOOL_SPECS);
    if (!turn.toolCalls.length || round === MAX_ROUNDS) {
      return { text: closing(turn.content, runner), suggestions: runner.suggestions, offerQuickActions: false };
    }
    messages.push({ role: 'assistant', content: turn.content, toolCalls: turn.toolCalls });
    for (const call of turn.toolCalls) {
      messages.push({ role: 'tool', toolCallId: call.id, content: JSON.stringify(await runner.run(call)) });
    }
  }
  throw new ModelError('unreachable');
}
