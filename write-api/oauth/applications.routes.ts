import { oauthOperations, type CreateOAuthApplicationBody } from '../../contracts/oauth';
import { findOperation } from '../../contracts/operation';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import { route } from '../../services/http/route';

export function applicationsRoutes(app: AppContext) {
  return [
    route(findOperation(oauthOperations, 'get', '/oauth/applications'), async ({ principal }) => ({
      status: 200,
      body: { applications: await app.oauth.applications.list(principal!.userId) },
    })),

    route<CreateOAuthApplicationBody>(findOperation(oauthOperations, 'post', '/oauth/applications'), async ({ body, principal }) => {
      const { application, clientSecret } = await app.oauth.applications.create(principal!.userId, body);
      return { status: 201, body: { application, clientId: application.clientId, clientSecret }, headers: { 'Cache-Control': 'no-store' } };
    }),

    route<unknown, unknown, { id: string }>(findOperation(oauthOperations, 'delete', '/oauth/applications/{id}'), async ({ params, principal }) => {
      const clientId = await app.oauth.applications.remove(principal!.userId, params.id);
      if (!clientId) throw notFound('Application');
      await app.oauth.grants.revokeClient(clientId);
      return { status: 204 };
    }),
  ];
}
