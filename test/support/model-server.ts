/**
 * A local HTTP server that speaks the OpenAI chat-completions API (POST <base>/chat/completions, no streaming) and
 * answers what the test's script says: text, tool calls, an error status or a long silence. No network.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { Socket } from 'node:net';

export interface ChatRequest {
  headers: IncomingHttpHeaders;
  body: { model: string; messages: Array<Record<string, any>>; tools?: Array<{ type: string; function: { name: string } }> };
}

export interface ScriptedAnswer {
  status?: number;
  delayMs?: number;
  content?: string | null;
  toolCalls?: Array<{ name: string; arguments: unknown }>;
}

export type Script = (request: ChatRequest) => ScriptedAnswer;

export interface ModelServer {
  /** Base URL to give as ASSISTANT_MODEL_URL. */
  url: string;
  requests: ChatRequest[];
  script: Script;
  close(): Promise<void>;
}

let calls = 0;

function completion(model: string, answer: ScriptedAnswer) {
  const toolCalls = (answer.toolCalls ?? []).map((c) => ({
    id: `call_${++calls}`, type: 'function', function: { name: c.name, arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments) },
  }));
  return {
    id: `chatcmpl-${calls}`, object: 'chat.completion', created: Math.floor(Date.now() / 1000), model,
    choices: [{
      index: 0,
      message: { role: 'assistant', content: answer.content ?? null, ...(toolCalls.length ? { tool_calls: toolCalls } : {}) },
      finish_reason: toolCalls.length ? 'tool_calls' : 'stop',
    }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

export async function startModelServer(): Promise<ModelServer> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const state: ModelServer = { url: '', requests: [], script: () => ({ content: 'Hello.' }), close: async () => undefined };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      const request: ChatRequest = { headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString()) };
      state.requests.push(request);
      const answer = state.script(request);
      const send = () => {
        if (answer.status && answer.status >= 400) {
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'scripted failure', type: 'server_error' } }));
        } else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(completion(request.body.model, answer)));
      };
      if (!answer.delayMs) return send();
      const timer = setTimeout(() => { timers.delete(timer); if (!res.destroyed) send(); }, answer.delayMs);
      timers.add(timer);
    });
  });
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  state.url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/v1`;
  state.close = async () => {
    for (const t of timers) clearTimeout(t);
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return state;
}

/** The messages of a request from the last user message on: what the model was asked this turn. */
export const lastMessage = (request: ChatRequest) => request.body.messages[request.body.messages.length - 1];

/** The parsed result of the last tool call, when the request's last message is one. */
export function toolResult(request: ChatRequest): Record<string, any> | null {
  const last = lastMessage(request);
  return last.role === 'tool' ? JSON.parse(last.content as string) : null;
}
