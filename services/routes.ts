/** Every operation of the API and its handler, slice by slice. */
import { apiKeyOperations } from '../contracts/api-keys';
import { authOperations } from '../contracts/auth';
import { bugReportOperations } from '../contracts/bug-reports';
import { eventTypeOperations } from '../contracts/event-types';
import { eventOperations } from '../contracts/events';
import { focusOperations } from '../contracts/focus';
import { goalOperations } from '../contracts/goals';
import { insightOperations } from '../contracts/insights';
import { integrationOperations } from '../contracts/integrations';
import type { Operation } from '../contracts/operation';
import { profileOperations } from '../contracts/profile';
import { spaceOperations } from '../contracts/spaces';
import { oauthOperations } from '../contracts/oauth';
import { syncOperations } from '../contracts/sync';
import { webhookOperations } from '../contracts/webhooks';
import { bugReportsReadRoutes } from '../read-api/bug-reports/bug-reports.routes';
import { eventTypesReadRoutes } from '../read-api/event-types/event-types.routes';
import { eventsReadRoutes } from '../read-api/events/events.routes';
import { focusReadRoutes } from '../read-api/focus/focus.routes';
import { goalsReadRoutes } from '../read-api/goals/goals.routes';
import { insightsRoutes } from '../read-api/insights/insights.routes';
import { profileReadRoutes } from '../read-api/profile/profile.routes';
import { spacesReadRoutes } from '../read-api/spaces/spaces.routes';
import { syncRoutes } from '../read-api/sync/sync.routes';
import { webhooksReadRoutes } from '../read-api/webhooks/webhooks.routes';
import { accountsRoutes } from '../write-api/accounts/accounts.routes';
import { apiKeysRoutes } from '../write-api/api-keys/api-keys.routes';
import { bugReportsWriteRoutes } from '../write-api/bug-reports/bug-reports.routes';
import { eventTypesWriteRoutes } from '../write-api/event-types/event-types.routes';
import { eventsWriteRoutes } from '../write-api/events/events.routes';
import { focusWriteRoutes } from '../write-api/focus/focus.routes';
import { goalsWriteRoutes } from '../write-api/goals/goals.routes';
import { integrationsRoutes } from '../write-api/integrations/integrations.routes';
import { applicationsRoutes } from '../write-api/oauth/applications.routes';
import { authorizeRoutes } from '../write-api/oauth/authorize.routes';
import { tokenRoutes } from '../write-api/oauth/token.routes';
import { profileWriteRoutes } from '../write-api/profile/profile.routes';
import { spacesWriteRoutes } from '../write-api/spaces/spaces.routes';
import { webhooksWriteRoutes } from '../write-api/webhooks/webhooks.routes';
import type { AppContext } from './app-context';
import type { Route } from './http/route';

export const apiOperations: Operation[] = [
  ...authOperations, ...profileOperations, ...spaceOperations, ...eventOperations, ...syncOperations,
  ...apiKeyOperations, ...oauthOperations, ...webhookOperations, ...integrationOperations,
  ...focusOperations, ...goalOperations, ...eventTypeOperations, ...insightOperations, ...bugReportOperations,
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
    ...focusReadRoutes(app), ...focusWriteRoutes(app),
    ...goalsReadRoutes(app), ...goalsWriteRoutes(app),
    ...eventTypesReadRoutes(app), ...eventTypesWriteRoutes(app),
    ...insightsRoutes(app),
    ...bugReportsReadRoutes(app), ...bugReportsWriteRoutes(app),
  ];
}
