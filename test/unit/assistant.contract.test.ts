/** Every named schema of the assistant contract has examples, each valid for its own schema (OpenAPI docs, schemathesis). */
import type { z } from 'zod';
import * as assistant from '../../contracts/assistant';
import { TOOL_ARGS, TOOL_SPECS } from '../../services/assistant/tools';

const exported: Record<string, unknown> = { ...assistant };
const named = Object.entries(exported).filter(
  (entry): entry is [string, z.ZodType] => typeof (entry[1] as z.ZodType)?.meta === 'function' && !!(entry[1] as z.ZodType).meta()?.id,
);

describe('assistant contract examples', () => {
  it('names every request and response schema', () => {
    expect(named.map(([name]) => name).sort()).toEqual([
      'AssistantMessage', 'AssistantPreferences', 'AssistantPreferencesResponse', 'AssistantStatus', 'Conversation',
      'ConversationDetail', 'ConversationPage', 'DecisionBody', 'DecisionResponse', 'FeedbackBody', 'QuickAction',
      'QuickActionsResponse', 'SendMessageBody', 'SendMessageResponse', 'Suggestion', 'UpdateAssistantPreferencesBody',
    ]);
  });

  it.each(named)('%s has examples, each valid', (_name, schema) => {
    const examples = schema.meta()?.examples as unknown[] | undefined;
    expect(examples?.length).toBeGreaterThan(0);
    for (const example of examples!) expect(schema.safeParse(example).error?.issues).toBeUndefined();
  });

  it('describes each model tool\'s arguments as a JSON Schema object', () => {
    expect(TOOL_SPECS.map((t) => t.name)).toEqual(Object.keys(TOOL_ARGS));
    for (const tool of TOOL_SPECS) {
      expect(tool.parameters).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.description.length).toBeGreaterThan(10);
    }
    expect(TOOL_SPECS.find((t) => t.name === 'create_event')!.parameters.required).toEqual(['title', 'startsAt', 'endsAt']);
  });
});
