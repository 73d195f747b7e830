import type { z } from 'zod';
import { authOperations, type LoginBody, type SignupBody } from '../../contracts/auth';
import { findOperation as opFor } from '../../contracts/operation';
import { credentialsByEmail } from '../../read-api/profile/users.queries';
import type { AppContext } from '../../services/app-context';
import { ApiError } from '../../services/errors';
import { SESSION_COOKIE } from '../../services/http/auth';
import { LoginThrottle } from '../../services/http/login-throttle';
import { errorBody } from '../../services/http/errors';
import { route, type Input } from '../../services/http/route';
import { hashPassword, verifyPassword } from './password';
import { signup } from './signup';

function sessionCookie(input: Input<unknown, unknown, unknown>, token: string, expiresAt: string): string {
  const host = (input.header('Host') ?? '').split(':')[0];
  const local = host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
  const maxAge = Math.max(0, Math.floor((Date.parse(expiresAt) - Date.now()) / 1000));
  return `${SESSION_COOKIE}=${token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${local ? '' : '; Secure'}`;
}

export function accountsRoutes(app: AppContext) {
  let dummyHash: Promise<string> | null = null;
  const throttle = new LoginThrottle({
    freeFailures: app.config.LOGIN_FREE_FAILURES,
    maxFailures: app.config.LOGIN_MAX_FAILURES,
    windowMs: 15 * 60_000,
    baseDelayMs: 250,
    maxDelayMs: 8000,
  });
  return [
    route<z.infer<typeof SignupBody>>(opFor(authOperations, 'post', '/auth/signup'), async (input) => {
      const { user, position } = await signup(app, input.body, {
        userId: null, commandId: input.commandId, correlationId: input.requestId,
      });
      const session = await app.sessions.create(user.id);
      return { status: 201, body: { user, session }, position, cookies: [sessionCookie(input, session.token, session.expiresAt)] };
    }),

    route<z.infer<typeof LoginBody>>(opFor(authOperations, 'post', '/auth/login'), async (input) => {
      const { email, password } = input.body;
      try {
        await throttle.beforeAttempt(email, input.ip);
      } catch (err) {
        const retry = String(((err as ApiError).details as { retryAfter: number }).retryAfter);
        return { status: 429, body: errorBody(err as ApiError), headers: { 'Retry-After': retry } };
      }
      const found = await credentialsByEmail(app.readModels, email);
      // Unknown emails cost the same time as wrong passwords, so the answer tells nothing about who has an account.
      dummyHash ??= hashPassword('not a password', app.config.PASSWORD_HASH_COST);
      const ok = await verifyPassword(password, found?.passwordHash ?? (await dummyHash));
      if (!found || !ok) {
        throttle.failed(email, input.ip);
        throw new ApiError(401, 'invalid_credentials', 'Email or password is wrong');
      }
      throttle.succeeded(email, input.ip);
      const session = await app.sessions.create(found.user.id);
      return {
        status: 200,
        body: { user: found.user, session },
        cookies: [sessionCookie(input, session.token, session.expiresAt)],
      };
    }),

    route(opFor(authOperations, 'post', '/auth/logout'), async (input) => {
      if (input.principal?.kind === 'session') await app.sessions.revokeById(input.principal.credentialId);
      return { status: 204, cookies: [`${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`] };
    }),
  ];
}
