/** The OpenAPI 3.1 document, generated from the zod contracts, the access table and the header table. */
import type { z } from 'zod';
import { ErrorEnvelope } from '../../contracts/common';
import type { Operation } from '../../contracts/operation';
import { DELIVERY_HEADERS, webhookBodies } from '../../contracts/webhooks';
import { access, SCOPES } from './access';
import { REQUEST_HEADERS, RESPONSE_HEADERS, type ResponseHeader } from './headers';
import { SchemaComponents } from './openapi-schemas';
import { patchNeedsAField, refusesUnknownFields, routeKey } from './route';

export const API_LICENSE = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };

/** What each tag groups, for the docs page (a tag missing here is listed without one, and redocly warns). */
const TAG_DESCRIPTIONS: Record<string, string> = {
  Accounts: 'Sign up, sign in and out; session tokens (`cs_…`)',
  'API keys': 'Keys (`ck_live_…`, `ck_test_…`) for integrations, with scopes; managed with a session',
  Calendars: 'Calendars inside Spaces',
  Events: 'Calendar events, recurring series, invitations and RSVPs; versions with ETag / If-Match',
  Integrations: 'Events of connected providers, reported by the integration layer',
  OAuth: 'OAuth 2.0 applications, consent and tokens (authorization code with PKCE, refresh rotation)',
  Profile: 'The caller\'s profile, preferences and app bootstrap',
  Spaces: 'Personal and shared Spaces',
  Sync: 'Changes since a cursor, for offline apps',
  Webhooks: 'Signed deliveries of changes to your URLs: management, delivery log, and the bodies sent',
};

/** What any operation may answer, found by the machinery before (or around) the handler. */
const COMMON_FAILURES: Record<string, string> = {
  400: 'Invalid request (`invalid_request`, with `details.issues`); `position_beyond_log` for an ' +
    '`X-Calendar-Min-Position` past the end of the log',
  401: 'No valid credential (`unauthenticated`)',
  403: 'Not allowed with this credential (`insufficient_scope`, `session_required`)',
  414: 'URL longer than 8 KB (`uri_too_long`)',
  429: 'Too many requests (`rate_limited`)',
  503: 'A store the service needs cannot be reached or is too busy (`store_unavailable`); retry after `Retry-After`',
  507: 'The service\'s storage is full (`insufficient_storage`); try again later (a write retried with its Idempotency-Key is made once)',
  default: 'Error',
};
/** Expensive operations share the machine fairly (services/http/fair-share.ts). */
const HEAVY_FAILURES: Record<string, string> = {
  429: 'Too many requests (`rate_limited`), or too many of these at once from this credential (`too_many_concurrent_requests`: ' +
    'a few run at once per credential and a few more wait; retry after `Retry-After`)',
  503: 'A store cannot be reached (`store_unavailable`), or the service is busy with requests like this one (`overloaded`: ' +
    'this one waited for its turn too long); retry after `Retry-After`',
};
const BODY_FAILURES: Record<string, string> = {
  413: 'Body too large (`payload_too_large`)',
  415: 'Unsupported body encoding (`unsupported_media_type`)',
};

const headerRef = (name: string) => ({ $ref: `#/components/headers/${name}` });
const parameterRef = (name: string) => ({ $ref: `#/components/parameters/${name}` });

function parameters(op: Operation, schemas: SchemaComponents) {
  const out: unknown[] = REQUEST_HEADERS.filter((h) => h.applies(op)).map((h) => parameterRef(h.name));
  for (const [where, obj] of [['path', op.params], ['query', op.query]] as const) {
    if (!obj) continue;
    const json = schemas.convert(obj, 'input', true);
    const required = new Set((json.required ?? []) as string[]);
    for (const [name, schema] of Object.entries(json.properties as Record<string, Record<string, unknown>>)) {
      out.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        description: schema.description,
        schema,
        ...(where === 'query' ? { explode: true } : {}),
      });
    }
  }
  return out;
}

/** The request body as clients send it, with the rules route.ts adds: unknown top-level fields refused, PATCH not empty. */
function requestBody(op: Operation, body: z.ZodType, schemas: SchemaComponents) {
  const schema = schemas.convert(body, 'input');
  const target = typeof schema.$ref === 'string' ? schemas.schemas[schema.$ref.split('/').pop()!] : schema;
  // A body published as cases (`documentedAs`) closes each case: at the root, `additionalProperties` would see no
  // `properties` and refuse every field.
  const anyOf = target.anyOf as Array<Record<string, unknown>> | undefined;
  const cases = anyOf?.every((c) => c.properties) ? anyOf : [target];
  if (refusesUnknownFields(body)) for (const c of cases) c.additionalProperties = false;
  if (patchNeedsAField(op)) target.minProperties = 1;
  const content = Object.fromEntries((op.bodyContentTypes ?? ['application/json']).map((type) => [type, { schema }]));
  return { required: !op.bodyOptional, content };
}

const responseHeaders = (op: Operation, status: string, hasBody: boolean) => {
  const names = RESPONSE_HEADERS.filter((h) => h.applies(op, status, hasBody)).map((h) => h.name);
  return { headers: Object.fromEntries(names.map((name) => [name, headerRef(name)])) };
};

function responses(op: Operation, schemas: SchemaComponents, errorRef: unknown) {
  const out: Record<string, unknown> = {};
  for (const [status, r] of Object.entries(op.responses)) {
    const schema = r.schema && schemas.convert(r.schema, 'output');
    if (schema) schemas.fillExamples(schema);
    const content: Record<string, unknown> = schema ? { [r.contentType ?? 'application/json']: { schema } } : {};
    // Failures found before the handler runs (unreadable body, auth) always answer in the JSON envelope.
    if (Number(status) >= 400 && r.contentType && r.contentType !== 'application/json') content['application/json'] = { schema: errorRef };
    const hasBody = Object.keys(content).length > 0;
    out[status] = { description: r.description, ...responseHeaders(op, status, hasBody), ...(hasBody ? { content } : {}) };
  }
  const failure = op.errorSchema ? schemas.convert(op.errorSchema, 'output') : errorRef;
  const common = { ...COMMON_FAILURES, ...(op.body ? BODY_FAILURES : {}), ...(op.heavy ? HEAVY_FAILURES : {}) };
  for (const [status, description] of Object.entries(common)) {
    out[status] ??= { description, ...responseHeaders(op, status, true), content: { 'application/json': { schema: failure } } };
  }
  return out;
}

function security(op: Operation) {
  const rule = access[routeKey(op)];
  if (!rule || rule.kind === 'public') return { security: [] };
  if (rule.kind === 'scope') {
    return { security: [{ bearer: [rule.scope] }, { oauth2: [rule.scope] }, { cookie: [] }], 'x-required-scope': rule.scope };
  }
  if (rule.kind === 'session') return { security: [{ bearer: [] }, { cookie: [] }], 'x-auth': rule.kind };
  return { security: [{ bearer: [] }, { oauth2: [] }, { cookie: [] }], 'x-auth': rule.kind };
}

export const operationId = (op: Pick<Operation, 'method' | 'path'>) =>
  `${op.method}${op.path.replace(/[{}]/g, '').replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase())}`;

/** OpenAPI 3.1 `webhooks`: what we POST to a receiver, per type. */
function webhookDocs(schemas: SchemaComponents) {
  return Object.fromEntries(webhookBodies.map((w) => [w.type, {
    post: {
      operationId: `webhook${w.type.replace(/(?:^|[._])(\w)/g, (_, c: string) => c.toUpperCase())}`,
      summary: w.summary,
      tags: ['Webhooks'],
      security: [],
      parameters: DELIVERY_HEADERS.map(([name, description]) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } })),
      requestBody: { required: true, content: { 'application/json': { schema: schemas.convert(w.schema, 'output') } } },
      responses: { '2XX': { description: 'Received; any other answer (or none within the time-out) is retried' } },
    },
  }]));
}

const headerComponent = ({ description, schema, required }: ResponseHeader) => ({ description, schema, required });

export function buildOpenApi(operations: Operation[], serverUrl = '/api/v1') {
  const schemas = new SchemaComponents();
  const paths: Record<string, Record<string, unknown>> = {};
  const errorRef = schemas.convert(ErrorEnvelope, 'output');
  const tags = new Set<string>(['Webhooks']);
  for (const op of operations) {
    tags.add(op.tag);
    paths[op.path] ??= {};
    paths[op.path][op.method] = {
      operationId: operationId(op),
      summary: op.summary,
      description: op.description,
      tags: [op.tag],
      parameters: parameters(op, schemas),
      ...(op.body ? { requestBody: requestBody(op, op.body, schemas) } : {}),
      responses: responses(op, schemas, errorRef),
      ...security(op),
    };
  }
  const webhooks = webhookDocs(schemas);
  schemas.fillExamples();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Calendar and planning API',
      version: '1.0.0',
      license: API_LICENSE,
      description:
        'Versioned REST API (v1 in the path). Writes answer with X-Calendar-Position; a read with ' +
        'X-Calendar-Min-Position waits (bounded) until the read model has reached it, and says X-Calendar-Stale ' +
        'when it did not in time. Every POST accepts Idempotency-Key. ' +
        'Resources with a version answer with an ETag, and their PATCH and DELETE honour If-Match.',
    },
    servers: [{ url: serverUrl }],
    tags: [...tags].sort().map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) })),
    paths,
    webhooks,
    components: {
      schemas: schemas.schemas,
      parameters: Object.fromEntries(REQUEST_HEADERS.map((h) => [h.name, { name: h.name, in: 'header', required: false, description: h.description, schema: h.schema }])),
      headers: Object.fromEntries(RESPONSE_HEADERS.map((h) => [h.name, headerComponent(h)])),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Session token (cs_…), API key (ck_…) or OAuth access token' },
        oauth2: {
          type: 'oauth2',
          description: 'Authorization code with PKCE (S256); discovery at /.well-known/oauth-authorization-server. To authorize ' +
            'the /docs page, register a public application whose redirect URI is this server\'s /docs/oauth2-redirect.html.',
          flows: {
            authorizationCode: {
              authorizationUrl: `${serverUrl}/oauth/authorize`,
              tokenUrl: `${serverUrl}/oauth/token`,
              refreshUrl: `${serverUrl}/oauth/token`,
              scopes: Object.fromEntries(SCOPES.map((s) => [s, `${s.split(':')[1]} ${s.split(':')[0]}`])),
            },
          },
        },
        cookie: { type: 'apiKey', in: 'cookie', name: 'session' },
      },
    },
  };
}
