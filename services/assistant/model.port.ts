/**
 * The chat model port: one turn of a tool-calling chat. The adapter (openai-chat.model.ts) speaks the OpenAI
 * chat-completions API to any compatible server; tests put a local server behind it.
 */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  parameters: Record<string, unknown>;
}

export interface ToolCall {
  id: string;
  name: string;
  /** JSON text, as the model wrote it (not trusted: validated before use). */
  arguments: string;
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; toolCalls?: ToolCall[] }
  | { role: 'tool'; toolCallId: string; content: string };

export interface ModelTurn {
  content: string | null;
  toolCalls: ToolCall[];
}

export interface ChatModel {
  readonly name: string;
  /** Throws ModelError when the model cannot be reached, answers an error or takes too long. */
  complete(messages: ChatMessage[], tools: ToolSpec[]): Promise<ModelTurn>;
}

/** The model failed (network, status, time-out, unusable answer): the built-in assistant answers instead. */
export class ModelError extends Error {
  override readonly name = 'ModelError';
}
