/** Every operation of the API and its handler, slice by slice. */
import { apiKeyOperations } from '../contracts/api-keys';
import { authOperations } from '../contracts/auth';
import { eventOperations } from '../contracts/events';
import { integrationOperations } from '../contracts/integrations';
import type { Operation } from '../contracts/operation';
import { profileOperations } from '../contracts/profile';
import { spaceOperations } from '../contracts/spaces';
import { oauthOperations } from '../contracts/oauth';
import { syncOperations } from '../contracts/sync';
import { projectOperations, taskOperations } from '../contracts/tasks';
import { webhookOperations } from '../contracts/webhooks';
import { eventsReadRoutes } from '../read-api/events/events.routes';
import { profileReadRoutes } from '../read-api/profile/profile.routes';
import { spacesReadRoutes } from '../read-api/spaces/spaces.routes';
import { syncRoutes } from '../read-api/sync/sync.routes';
import { tasksReadRoutes } from '../read-api/tasks/tasks.routes';
import { webhooksReadRoutes } from '../read-api/webhooks/webhooks.routes';
import { accountsRoutes } from '../write-api/accounts/accounts.routes';
import { apiKeysRoutes } from '../write-api/api-keys/api-keys.routes';
import { eventsWriteRoutes } from '../write-api/events/events.routes';
import { integrationsRoutes } from '../write-api/integrations/integrations.routes';
import { applicationsRoutes } from '../write-api/oauth/applications.routes';
import { authorizeRoutes } from '../write-api/oauth/authorize.routes';
import { tokenRoutes } from '../write-api/oauth/token.routes';
import { profileWriteRoutes } from '../write-api/profile/profile.routes';
import { spacesWriteRoutes } from '../write-api/spaces/spaces.routes';
import { projectsWriteRoutes } from '../write-api/tasks/projects.routes';
import { tasksWriteRoutes } from '../write-api/tasks/tasks.routes';
import { webhooksWriteRoutes } from '../write-api/webhooks/webhooks.routes';
import type { AppContext } from './app-context';
import type { Route } from './http/route';

export const apiOperations: Operation[] = [
  ...authOperations, ...profileOperations, ...spaceOperations, ...eventOperations, ...syncOperations,
  ...apiKeyOperations, ...oauthOperations, ...webhookOperations, ...integrationOperations,
  ...taskOperations, ...projectOperations,
];

export function apiRoutes(app: AppContext): Route[] {
  return [
    ...accountsRoutes(app),
    ...profileReadRoutes(app),
    ...profileWriteRoutes(app),
    ...spacesReadRoutes(app),
    ...spacesWriteRoutes(app),
    ...eventsReadRoutes(app),
    ...eventsWriteRoutes(app),
    ...syncRoutes(app),
    ...apiKeysRoutes(app),
    ...applicationsRoutes(app),
    ...authorizeRoutes(app),
    ...tokenRoutes(app),
    ...webhooksReadRoutes(app),
    ...webhooksWriteRoutes(app),
    ...integrationsRoutes(app),
    ...tasksReadRoutes(app),
    ...tasksWriteRoutes(app),
    ...projectsWriteRoutes(app),
  ];
}
