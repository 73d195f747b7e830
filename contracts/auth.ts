import { z } from 'zod';
import { DateTime, Email, ErrorEnvelope, NonBlankText, TimeZone } from './common';
import * as examples from './examples';
import { op } from './operation';
import { Profile } from './profile';

export const SignupBody = z
  .object({
    email: Email,
    password: z.string().min(8).max(512),
    name: NonBlankText(200),
    timeZone: TimeZone.optional(),
  })
  .meta({ id: 'SignupBody', examples: [{ email: 'ada@example.com', password: 'correct horse battery', name: 'Ada Lovelace', timeZone: 'Europe/London' }] });

export const LoginBody = z
  .object({ email: z.string().max(254), password: z.string().max(512) })
  .meta({ id: 'LoginBody', examples: [{ email: 'ada@example.com', password: 'correct horse battery' }] });

export const SessionResponse = z
  .object({
    user: Profile,
    session: z
      .object({ token: z.string().describe('Starts with `cs_`'), expiresAt: DateTime })
      .meta({ examples: [{ token: examples.secrets.session, expiresAt: '2026-04-01T08:15:00.000Z' }] }),
  })
  .meta({ id: 'SessionResponse' });

export const authOperations = [
  op({ method: 'post', path: '/auth/signup', tag: 'Accounts', summary: 'Create an account (personal Space and calendar)',
    body: SignupBody,
    responses: { 201: { description: 'Signed up', schema: SessionResponse }, 409: { description: '`email_taken`', schema: ErrorEnvelope } } }),
  op({ method: 'post', path: '/auth/login', tag: 'Accounts', summary: 'Sign in', body: LoginBody,
    responses: { 200: { description: 'Signed in', schema: SessionResponse }, 401: { description: '`invalid_credentials`', schema: ErrorEnvelope } } }),
  op({ method: 'post', path: '/auth/logout', tag: 'Accounts', summary: 'End this session',
    responses: { 204: { description: 'Signed out' } } }),
];
