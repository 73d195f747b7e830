import { assistantOperations } from '../../contracts/assistant';
import { findOperation } from '../../contracts/operation';
import type { PageQuery } from '../../contracts/paging';
import type { AppContext } from '../../services/app-context';
import { quickActions } from '../../services/assistant/quick-actions';
import { notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { nextMonthStart, usageMonth } from '../plan/ai-answers';
import { PLANS } from '../plan/plan.routes';
import { assistantKit } from './assistant-kit';
import { conversationView, messageViews } from './views';

const operation = (method: 'get', path: string) => findOperation(assistantOperations, method, path);

export function assistantReadRoutes(app: AppContext) {
  const kit = assistantKit(app);

  const cutoffFor = async (userId: string, now: number) => (await kit.retention(userId, now)).cutoff;

  return [
    route<unknown, PageQuery>(operation('get', '/assistant/conversations'), async ({ principal, query }) => {
      const userId = principal!.userId;
      const page = await kit.history.conversationPage(userId, await cutoffFor(userId, Date.now()), query);
      return { status: 200, body: { conversations: page.items.map(conversationView), nextPageToken: page.nextPageToken } };
    }),

    route<unknown, PageQuery, { id: string }>(operation('get', '/assistant/conversations/{id}'), async ({ principal, query, params }) => {
      const userId = principal!.userId;
      const cutoff = await cutoffFor(userId, Date.now());
      const conversation = await kit.history.conversation(userId, params.id, cutoff);
      if (!conversation) throw notFound('Conversation');
      const page = await kit.history.messagePage(conversation, cutoff, query);
      return {
        status: 200,
        body: {
          conversation: conversationView(conversation),
          messages: await messageViews(app.readModels, kit.history, page.items),
          nextPageToken: page.nextPageToken,
        },
      };
    }),

    route(operation('get', '/assistant/preferences'), async ({ principal }) => ({
      status: 200, body: { preferences: await kit.preferences(principal!.userId) },
    })),

    route(operation('get', '/assistant/quick-actions'), async ({ principal }) => ({
      status: 200, body: { quickActions: quickActions(await kit.preferences(principal!.userId)) },
    })),

    route(operation('get', '/assistant/status'), async ({ principal }) => {
      const now = new Date();
      const model = kit.assistant.model;
      const health = model ? await kit.health.view() : { connected: false, lastError: null };
      return {
        status: 200,
        body: {
          answeredBy: model && health.connected ? 'model' : 'builtin',
          model: { configured: !!model, connected: health.connected, name: model?.name ?? null, lastError: health.lastError },
          usage: {
            month: usageMonth(now), used: await kit.answers.usage(principal!.userId, now), limit: PLANS[0].aiAnswersPerMonth,
            resetsAt: nextMonthStart(now),
          },
        },
      };
    }),
  ];
}
