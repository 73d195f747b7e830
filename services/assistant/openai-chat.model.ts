/** The chat model port over the `openai` package, pointed at ASSISTANT_MODEL_URL (any OpenAI-compatible server). */
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { ModelError, type ChatMessage, type ChatModel, type ModelTurn } from './model.port';

export interface ModelSettings {
  url: string;
  model: string;
  key?: string;
  timeoutMs: number;
}

function toOpenAi(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls?.length
          ? { tool_calls: message.toolCalls.map((c) => ({ id: c.id, type: 'function' as const, function: { name: c.name, arguments: c.arguments } })) }
          : {}),
      };
    default:
      return { role: message.role, content: message.content };
  }
}

export function openAiChatModel(settings: ModelSettings): ChatModel {
  // Local servers often need no key; the client insists on one.
  const client = new OpenAI({ baseURL: settings.url, apiKey: settings.key ?? 'none', timeout: settings.timeoutMs, maxRetries: 0 });
  return {
    name: settings.model,
    async complete(messages, tools): Promise<ModelTurn> {
      let answer;
      const started = Date.now();
      try {
        answer = await client.chat.completions.create({
          model: settings.model,
          messages: messages.map(toOpenAi),
          ...(tools.length
            ? { tools: tools.map((t) => ({ type: 'function' as const, function: { name: t.name, description: t.description, parameters: t.parameters } })), tool_choice: 'auto' as const }
            : {}),
        });
      } catch (err) {
        const timedOut = err instanceof OpenAI.APIConnectionTimeoutError || Date.now() - started >= settings.timeoutMs;
        throw new ModelError(timedOut ? `no answer within ${settings.timeoutMs} ms (timed out)` : err instanceof Error ? err.message : String(err));
      }
      const message = answer?.choices?.[0]?.message;
      if (!message) throw new ModelError('the model answered without a message');
      const toolCalls = (message.tool_calls ?? []).flatMap((c) =>
        c.type === 'function' ? [{ id: c.id, name: c.function.name, arguments: c.function.arguments }] : []);
      return { content: message.content ?? null, toolCalls };
    },
  };
}
