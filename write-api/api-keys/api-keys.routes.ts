import { apiKeyOperations, type CreateApiKeyBody } from '../../contracts/api-keys';
import { findOperation } from '../../contracts/operation';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { ensureTestAccount } from './test-environment';

export function apiKeysRoutes(app: AppContext) {
  return [
    route(findOperation(apiKeyOperations, 'get', '/api-keys'), async ({ principal }) => ({
      status: 200,
      body: { apiKeys: await app.apiKeys.list(principal!.userId) },
    })),

    route<CreateApiKeyBody>(findOperation(apiKeyOperations, 'post', '/api-keys'), async ({ body, principal, requestId }) => {
      const userId = principal!.userId;
      const test = body.environment === 'test' ? await ensureTestAccount(app, userId, requestId) : null;
      const created = await app.apiKeys.create(userId, {
        name: body.name, scopes: body.scopes, environment: body.environment, actingUserId: test?.testUserId ?? userId,
      });
      return { status: 201, body: created, headers: { 'Cache-Control': 'no-store' }, position: test?.position ?? null };
    }),

    route<unknown, unknown, { id: string }>(findOperation(apiKeyOperations, 'delete', '/api-keys/{id}'), async ({ params, principal }) => {
      if (!(await app.apiKeys.revoke(principal!.userId, params.id))) throw notFound('API key');
      return { status: 204 };
    }),
  ];
}
