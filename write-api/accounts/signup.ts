/**
 * Signup touches several streams: the email claim, a username claim, the user, and the personal Space. They are
 * appended in that order with ids derived from the command id, so a retried or interrupted signup completes the
 * same account instead of leaving half of one behind.
 */
import type { z } from 'zod';
import type { SignupBody } from '../../contracts/auth';
import type { UserRecord } from '../../contracts/domain-events';
import type { AppContext } from '../../services/app-context';
import { decided, type CommandContext } from '../../services/commands/command-handler';
import { ApiError } from '../../services/errors';
import { deterministicUuid } from '../../services/ids';
import { scheduleDecider, scheduleStream } from '../schedule/schedule.decider';
import { claimDecider, claimStream } from './claim.decider';
import { hashPassword } from './password';
import { userDecider, userStream } from './user.decider';

export const DEFAULT_MODULES = {
  calendar: true, tasks: true, projects: true, routines: true, goals: true, focus: true, bookings: true, assistant: true,
};

function usernameBase(email: string): string {
  const local = email.split('@')[0].toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
  const base = local.slice(0, 30) || 'user';
  return base.length >= 3 ? base : `${base}-user`;
}

async function claimEmail(app: AppContext, email: string, userId: string, ctx: CommandContext): Promise<string> {
  const stream = claimStream(app.claimSecret, 'email', email);
  try {
    await app.commands.handle(stream, claimDecider, { type: 'Claim', kind: 'email', value: email, userId }, ctx);
    return userId;
  } catch (err) {
    if (!(err instanceof ApiError) || err.code !== 'email_taken') throw err;
    const { state } = await app.commands.load(stream, claimDecider);
    const holder = (await app.commands.load(userStream(state.holder!), userDecider)).state;
    if (holder.user) throw err;
    return state.holder!; // an interrupted signup: finish that account
  }
}

export async function claimUsername(app: AppContext, wanted: string, userId: string, ctx: CommandContext, exact: boolean) {
  const candidates = exact ? [wanted] : [wanted, ...[2, 3, 4, 5].map((n) => `${wanted}-${n}`)];
  if (!exact) candidates.push(`${wanted}-${deterministicUuid(ctx.commandId, 'username').slice(0, 6)}`);
  for (const name of candidates) {
    try {
      await app.commands.handle(claimStream(app.claimSecret, 'username', name), claimDecider, { type: 'Claim', kind: 'username', value: name, userId }, ctx);
      return name;
    } catch (err) {
      if (!(err instanceof ApiError) || err.code !== 'username_taken' || name === candidates[candidates.length - 1]) throw err;
    }
  }
  throw new Error('unreachable');
}

export async function signup(app: AppContext, body: z.infer<typeof SignupBody>, ctx: CommandContext) {
  const email = body.email.trim();
  const userId = await claimEmail(app, email, deterministicUuid(ctx.commandId, 'user'), ctx);
  const existing = (await app.commands.load(userStream(userId), userDecider)).state.user;
  const username = existing?.username ?? (await claimUsername(app, usernameBase(email), userId, ctx, false));
  const now = new Date().toISOString();
  const user: UserRecord = existing ?? {
    id: userId,
    email,
    name: body.name,
    username,
    timeZone: body.timeZone ?? 'UTC',
    weekStartsOn: 1,
    enabledModules: DEFAULT_MODULES,
    preferences: {},
    personalSpaceId: deterministicUuid(userId, 'personal-space'),
    defaultCalendarId: deterministicUuid(userId, 'default-calendar'),
    createdAt: now,
    updatedAt: now,
  };
  const passwordHash = await hashPassword(body.password, app.config.PASSWORD_HASH_COST);
  const userCtx = { ...ctx, userId };
  const registered = await app.commands.handle(userStream(userId), userDecider, { type: 'Register', user, passwordHash }, userCtx);
  const registeredUser = decided(registered.events, 'user.registered').user;
  const space = await ensurePersonalSpace(app, registeredUser, userCtx);
  return { user: registeredUser, position: space ?? registered.position };
}

/** Creates the personal Space and default calendar if an interrupted signup left them out. */
export async function ensurePersonalSpace(app: AppContext, user: UserRecord, ctx: CommandContext): Promise<number | null> {
  const at = user.createdAt;
  const result = await app.commands.handle(
    scheduleStream(user.personalSpaceId),
    scheduleDecider,
    {
      type: 'CreateSpace',
      space: { id: user.personalSpaceId, name: 'Personal', kind: 'personal', ownerId: user.id, createdAt: at, updatedAt: at, deletedAt: null },
      calendar: {
        id: user.defaultCalendarId, spaceId: user.personalSpaceId, name: user.name, color: '#3366ff', isDefault: true,
        createdAt: at, updatedAt: at, deletedAt: null,
      },
    },
    { ...ctx, spaceId: user.personalSpaceId },
  );
  return result.position;
}
