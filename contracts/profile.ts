import { z } from 'zod';
import { checkWorkingHoursPreference } from './availability';
import { checkDefaultRemindersPreference } from './reminders';
import { DateTime, NonBlankText, TimeZone, Uuid } from './common';
import { FreeFormObject } from './free-form';
import * as examples from './examples';
import { Goal } from './goals';
import { op } from './operation';
import { RoutineView } from './routines';
import { ListedCalendar, Space } from './spaces';
import { Project, TaskList } from './tasks';

export const Username = z
  .string()
  .min(3)
  .max(40)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and dashes');

/** A module of the apps (`calendar`, `tasks`, `routines`, …): the key of `enabledModules`. */
const ModuleName = z.string().regex(/^[a-z][a-zA-Z0-9_-]{0,63}$/, 'a module name such as tasks or routines');

export const Profile = z
  .object({
    id: Uuid,
    email: z.string(),
    name: z.string(),
    username: z.string(),
    timeZone: z.string(),
    weekStartsOn: z.number().int().min(0).max(6).describe('0 = Sunday … 6 = Saturday'),
    enabledModules: z.record(z.string(), z.boolean()),
    preferences: z.record(z.string(), z.unknown()),
    personalSpaceId: Uuid,
    defaultCalendarId: Uuid,
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .meta({ id: 'Profile', examples: [examples.profile] });
export type Profile = z.infer<typeof Profile>;

export const UpdateProfileBody = z
  .object({
    name: NonBlankText(200),
    timeZone: TimeZone,
    weekStartsOn: z.number().int().min(0).max(6),
    enabledModules: z.record(ModuleName, z.boolean()).refine((m) => Object.keys(m).length <= 50, 'at most 50 modules'),
    preferences: FreeFormObject('Settings the apps keep (`workingHours`, `defaultReminders`, anything else)', {
      key: z.string().min(1).max(64),
      maxKeys: 100,
      maxBytes: 16_384,
    }).superRefine(checkWorkingHoursPreference).superRefine(checkDefaultRemindersPreference),
    username: Username,
  })
  .partial()
  .meta({
    id: 'UpdateProfileBody',
    description: 'At least one field; `preferences` and `enabledModules` are merged key by key',
    examples: [{ timeZone: 'America/New_York', weekStartsOn: 0, preferences: { theme: 'light' } }],
  });

export const ProfileResponse = z.object({ user: Profile }).meta({ id: 'ProfileResponse' });

export const Bootstrap = z
  .object({
    user: Profile,
    spaces: z.array(Space),
    calendars: z.array(ListedCalendar),
    goals: z.array(Goal).describe('The caller\'s current goals'),
    routines: z.array(RoutineView).describe('Live routines (at most 1000)'),
    projects: z.array(Project),
    lists: z.array(TaskList),
    cursor: z.string().meta({ description: 'A sync cursor: pass it to GET /sync?since= to get what changes from now on', examples: [examples.syncCursor] }),
    serverTime: DateTime.meta({ examples: [examples.at.updated] }),
  })
  .meta({ id: 'Bootstrap' });

export const profileOperations = [
  op({ method: 'get', path: '/me', tag: 'Profile', summary: 'The caller\'s profile, modules and preferences',
    responses: { 200: { description: 'Profile', schema: ProfileResponse } } }),
  op({ method: 'patch', path: '/me', tag: 'Profile', summary: 'Update the profile', body: UpdateProfileBody,
    responses: { 200: { description: 'Updated', schema: ProfileResponse } } }),
  op({ method: 'get', path: '/me/bootstrap', tag: 'Profile', summary: 'Everything an app needs to start, with a sync cursor',
    responses: { 200: { description: 'Bootstrap', schema: Bootstrap } } }),
];
