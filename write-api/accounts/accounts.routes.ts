import type { z } from 'zod';
import { authOperations, type LoginBody, type SignupBody } from '../../contracts/auth';
import { findOperation as opFor } from '../../contracts/operation';
import type { AppContext } from '../../services/app-context';
import { ApiError } from '../../services/errors';
import { SESSION_COOKIE } from '../../services/http/auth';
import { errorBody } from '../../services/http/errors';
import { route } from '../../services/http/route';
import { retryAfterOf, sessionCookie, type PasswordSignIn } from './password-sign-in';
import { signup } from './signup';

export function accountsRoutes(app: AppContext, passwords: PasswordSignIn) {
  return [
    route<z.infer<typeof SignupBody>>(opFor(authOperations, 'post', '/auth/signup'), async (input) => {
      const { user, position } = await signup(app, input.body, {
        userId: null, commandId: input.commandId, correlationId: input.requestId,
      });
      const session = await app.sessions.create(user.id);
      return { status: 201, body: { user, session }, position, cookies: [sessionCookie(input, session)] };
    }),

    route<z.infer<typeof LoginBody>>(opFor(authOperations, 'post', '/auth/login'), async (input) => {
      try {
        const { user, session } = await passwords.signIn(input.body.email, input.body.password, input.ip);
        return { status: 200, body: { user, session }, cookies: [sessionCookie(input, session)] };
      } catch (err) {
        if (!(err instanceof ApiError) || err.status !== 429) throw err;
        return { status: 429, body: errorBody(err), headers: { 'Retry-After': retryAfterOf(err) } };
      }
    }),

    route(opFor(authOperations, 'post', '/auth/logout'), async (input) => {
      if (input.principal?.kind === 'session') await app.sessions.revokeById(input.principal.credentialId);
      return { status: 204, cookies: [`${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0`] };
    }),
  ];
}
