/** Every operation of the API and its handler, slice by slice. */
import { apiKeyOperations } from '../contracts/api-keys';
import { assistantOperations } from '../contracts/assistant';
import { automationOperations } from '../contracts/automations';
import { availabilityOperations } from '../contracts/availability';
import { authOperations } from '../contracts/auth';
import { deviceOperations } from '../contracts/devices';
import { bookingOperations, meetingTypeOperations, publicBookingOperations } from '../contracts/bookings';
import { bugReportOperations } from '../contracts/bug-reports';
import { calendarMemberOperations } from '../contracts/calendar-members';
import { eventTypeOperations } from '../contracts/event-types';
import { eventOperations } from '../contracts/events';
import { occurrenceOperations } from '../contracts/occurrences';
import { focusOperations } from '../contracts/focus';
import { icalOperations } from '../contracts/ical';
import { inboxOperations } from '../contracts/inbox';
import { goalOperations } from '../contracts/goals';
import { insightOperations } from '../contracts/insights';
import { integrationOperations } from '../contracts/integrations';
import { notificationOperations } from '../contracts/notifications';
import type { Operation } from '../contracts/operation';
import { organizationOperations } from '../contracts/organizations';
import { planOperations } from '../contracts/plan';
import { plannerOperations } from '../contracts/planner';
import { profileOperations } from '../contracts/profile';
import { routineOperations } from '../contracts/routines';
import { schedulingOperations } from '../contracts/scheduling';
import { spaceOperations } from '../contracts/spaces';
import { subscriptionOperations } from '../contracts/subscriptions';
import { oauthOperations } from '../contracts/oauth';
import { syncOperations } from '../contracts/sync';
import { projectOperations, taskOperations } from '../contracts/tasks';
import { webhookOperations } from '../contracts/webhooks';
import { assistantReadRoutes } from '../read-api/assistant/assistant.routes';
import { automationsReadRoutes } from '../read-api/automations/automations.routes';
import { availabilityRoutes } from '../read-api/availability/availability.routes';
import { devicesReadRoutes } from '../read-api/devices/devices.routes';
import { eventsReadRoutes } from '../read-api/events/events.routes';
import { notificationsReadRoutes } from '../read-api/notifications/notifications.routes';
import { organizationsReadRoutes } from '../read-api/organizations/organizations.routes';
import { planReadRoutes } from '../read-api/plan/plan.routes';
import { plannerReadRoutes } from '../read-api/planner/planner.routes';
import { bookingsReadRoutes } from '../read-api/bookings/bookings.routes';
import { bugReportsReadRoutes } from '../read-api/bug-reports/bug-reports.routes';
import { eventTypesReadRoutes } from '../read-api/event-types/event-types.routes';
import { focusReadRoutes } from '../read-api/focus/focus.routes';
import { icalReadRoutes } from '../read-api/ical/feed.routes';
import { goalsReadRoutes } from '../read-api/goals/goals.routes';
import { inboxReadRoutes } from '../read-api/inbox/inbox.routes';
import { insightsRoutes } from '../read-api/insights/insights.routes';
import { profileReadRoutes } from '../read-api/profile/profile.routes';
import { routinesReadRoutes } from '../read-api/routines/routines.routes';
import { schedulingRoutes } from '../read-api/scheduling/scheduling.routes';
import { calendarMembersReadRoutes } from '../read-api/spaces/calendar-members.routes';
import { spacesReadRoutes } from '../read-api/spaces/spaces.routes';
import { syncRoutes } from '../read-api/sync/sync.routes';
import { tasksReadRoutes } from '../read-api/tasks/tasks.routes';
import { webhooksReadRoutes } from '../read-api/webhooks/webhooks.routes';
import { accountsRoutes } from '../write-api/accounts/accounts.routes';
import { PasswordSignIn } from '../write-api/accounts/password-sign-in';
import { apiKeysRoutes } from '../write-api/api-keys/api-keys.routes';
import { assistantWriteRoutes } from '../write-api/assistant/assistant.routes';
import { automationsWriteRoutes } from '../write-api/automations/automations.routes';
import { devicesWriteRoutes } from '../write-api/devices/devices.routes';
import { bookingsWriteRoutes } from '../write-api/bookings/bookings.routes';
import { meetingTypesWriteRoutes } from '../write-api/bookings/meeting-types.routes';
import { bugReportsWriteRoutes } from '../write-api/bug-reports/bug-reports.routes';
import { eventTypesWriteRoutes } from '../write-api/event-types/event-types.routes';
import { eventsWriteRoutes } from '../write-api/events/events.routes';
import { occurrencesWriteRoutes } from '../write-api/events/occurrences.routes';
import { focusWriteRoutes } from '../write-api/focus/focus.routes';
import { icalWriteRoutes } from '../write-api/calendars/ical.routes';
import { subscriptionWriteRoutes } from '../write-api/calendars/subscriptions.routes';
import { goalsWriteRoutes } from '../write-api/goals/goals.routes';
import { integrationsRoutes } from '../write-api/integrations/integrations.routes';
import { notificationsWriteRoutes } from '../write-api/notifications/notifications.routes';
import { plannerWriteRoutes } from '../write-api/planner/planner.routes';
import { applicationsRoutes } from '../write-api/oauth/applications.routes';
import { authorizeRoutes } from '../write-api/oauth/authorize.routes';
import { signInRoutes } from '../write-api/oauth/sign-in.routes';
import { tokenRoutes } from '../write-api/oauth/token.routes';
import { profileWriteRoutes } from '../write-api/profile/profile.routes';
import { routinesWriteRoutes } from '../write-api/routines/routines.routes';
import { calendarMembersWriteRoutes } from '../write-api/spaces/calendar-members.routes';
import { organizationsWriteRoutes } from '../write-api/organizations/organizations.routes';
import { spacesWriteRoutes } from '../write-api/spaces/spaces.routes';
import { projectsWriteRoutes } from '../write-api/tasks/projects.routes';
import { tasksWriteRoutes } from '../write-api/tasks/tasks.routes';
import { webhooksWriteRoutes } from '../write-api/webhooks/webhooks.routes';
import type { AppContext } from './app-context';
import type { Route } from './http/route';
import { PushService } from './push/push-service';

export const apiOperations: Operation[] = [
  ...authOperations, ...profileOperations, ...spaceOperations, ...calendarMemberOperations, ...eventOperations, ...occurrenceOperations, ...syncOperations,
  ...apiKeyOperations, ...oauthOperations, ...webhookOperations, ...integrationOperations, ...availabilityOperations, ...schedulingOperations,
  ...notificationOperations, ...deviceOperations, ...planOperations, ...organizationOperations,
  ...focusOperations, ...goalOperations, ...eventTypeOperations, ...insightOperations, ...bugReportOperations,
  ...routineOperations, ...taskOperations, ...projectOperations, ...plannerOperations,
  ...meetingTypeOperations, ...publicBookingOperations, ...bookingOperations, ...inboxOperations, ...assistantOperations,
  ...automationOperations, ...icalOperations, ...subscriptionOperations,
];

export function apiRoutes(app: AppContext): Route[] {
  const push = new PushService(app.config, app.store);
  // One throttle for every way of signing in with a password.
  const passwords = new PasswordSignIn(app);
  return [
    ...accountsRoutes(app, passwords),
    ...profileReadRoutes(app),
    ...profileWriteRoutes(app),
    ...spacesReadRoutes(app),
    ...spacesWriteRoutes(app),
    ...calendarMembersReadRoutes(app),
    ...calendarMembersWriteRoutes(app),
    ...eventsReadRoutes(app),
    ...eventsWriteRoutes(app),
    ...occurrencesWriteRoutes(app),
    ...syncRoutes(app),
    ...apiKeysRoutes(app),
    ...applicationsRoutes(app),
    ...authorizeRoutes(app),
    ...signInRoutes(app, passwords),
    ...tokenRoutes(app),
    ...webhooksReadRoutes(app),
    ...webhooksWriteRoutes(app),
    ...integrationsRoutes(app),
    ...availabilityRoutes(app),
    ...schedulingRoutes(app),
    ...notificationsReadRoutes(app),
    ...notificationsWriteRoutes(app),
    ...devicesReadRoutes(app, push),
    ...devicesWriteRoutes(app, push),
    ...planReadRoutes(app),
    ...organizationsReadRoutes(app),
    ...organizationsWriteRoutes(app),
    ...focusReadRoutes(app), ...focusWriteRoutes(app),
    ...goalsReadRoutes(app), ...goalsWriteRoutes(app),
    ...eventTypesReadRoutes(app), ...eventTypesWriteRoutes(app),
    ...insightsRoutes(app),
    ...bugReportsReadRoutes(app), ...bugReportsWriteRoutes(app),
    ...routinesReadRoutes(app),
    ...routinesWriteRoutes(app),
    ...tasksReadRoutes(app),
    ...tasksWriteRoutes(app),
    ...projectsWriteRoutes(app),
    ...plannerReadRoutes(app), ...plannerWriteRoutes(app),
    ...bookingsReadRoutes(app), ...meetingTypesWriteRoutes(app), ...bookingsWriteRoutes(app), ...inboxReadRoutes(app),
    ...assistantReadRoutes(app), ...assistantWriteRoutes(app),
    ...automationsReadRoutes(app), ...automationsWriteRoutes(app),
    ...icalWriteRoutes(app), ...icalReadRoutes(app), ...subscriptionWriteRoutes(app),
  ];
}
