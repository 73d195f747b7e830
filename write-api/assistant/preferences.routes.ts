import { assistantOperations, type AssistantPreferences, type UpdateAssistantPreferencesBody } from '../../contracts/assistant';
import { findOperation } from '../../contracts/operation';
import { assistantKit } from '../../read-api/assistant/assistant-kit';
import type { AppContext } from '../../services/app-context';
import { route } from '../../services/http/route';
import { preferencesDecider, preferencesStream } from './preferences.decider';

export function preferencesRoutes(app: AppContext) {
  const kit = assistantKit(app);
  return [
    route<UpdateAssistantPreferencesBody>(findOperation(assistantOperations, 'patch', '/assistant/preferences'), async ({ principal, body, commandId, requestId }) => {
      const userId = principal!.userId;
      const changes = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as Partial<AssistantPreferences>;
      const result = await app.commands.handle(preferencesStream(userId), preferencesDecider,
        { type: 'Update', userId, changes, at: new Date().toISOString() }, { userId, commandId, correlationId: requestId });
      // A shorter retention takes effect now: what it no longer keeps starts going at once.
      const { preferences } = await kit.retention(userId, Date.now());
      return { status: 200, body: { preferences }, position: result.position };
    }),
  ];
}
