import { z } from 'zod';
import { DateTime, ErrorEnvelope, IdParams, NonBlankText, Uuid } from './common';
import * as examples from './examples';
import { op } from './operation';
import { Scope, ScopeList } from './scopes';

export const ApiKeyEnvironment = z
  .enum(['live', 'test'])
  .describe('`test` keys act on a separate test-environment account and never see live data');

export const ApiKey = z
  .object({
    id: Uuid,
    name: z.string(),
    prefix: z.string().describe('The first characters of the key, e.g. `ck_live_ab12`'),
    scopes: z.array(Scope),
    environment: ApiKeyEnvironment,
    createdAt: DateTime,
    lastUsedAt: DateTime.nullable().describe('Updated at most about once a minute'),
  })
  .meta({
    id: 'ApiKey',
    examples: [{
      id: examples.ids.apiKey, name: 'Zapier', prefix: examples.secrets.apiKey.slice(0, 12), scopes: ['events:read', 'events:create'],
      environment: 'live', createdAt: examples.at.created, lastUsedAt: examples.at.updated,
    }],
  });
export type ApiKey = z.infer<typeof ApiKey>;

export const CreateApiKeyBody = z
  .object({
    name: NonBlankText(200),
    scopes: ScopeList,
    environment: ApiKeyEnvironment.default('live'),
  })
  .meta({ id: 'CreateApiKeyBody', examples: [{ name: 'Zapier', scopes: ['events:read', 'events:create'] }] });
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyBody>;

export const ApiKeyCreated = z
  .object({
    apiKey: ApiKey,
    key: z.string().meta({ description: 'The full key (`ck_live_…` or `ck_test_…`), shown only in this answer', examples: [examples.secrets.apiKey] }),
  })
  .meta({ id: 'ApiKeyCreated' });

export const apiKeyOperations = [
  op({ method: 'get', path: '/api-keys', tag: 'API keys', summary: 'The caller\'s API keys (never the keys themselves)',
    responses: { 200: { description: 'Keys', schema: z.object({ apiKeys: z.array(ApiKey) }).meta({ id: 'ApiKeyList' }) } } }),
  op({ method: 'post', path: '/api-keys', tag: 'API keys', summary: 'Create an API key; the full key is shown once',
    body: CreateApiKeyBody,
    responses: { 201: { description: 'Created', schema: ApiKeyCreated } } }),
  op({ method: 'delete', path: '/api-keys/{id}', tag: 'API keys', summary: 'Revoke an API key (at once)', params: IdParams,
    responses: { 204: { description: 'Revoked' }, 404: { description: 'No such key of the caller\'s', schema: ErrorEnvelope } } }),
];
