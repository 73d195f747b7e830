/** The OpenAPI 3.1 document, generated from the zod contracts and the access table. */
import { z } from 'zod';
import { ErrorEnvelope } from '../../contracts/common';
import type { Operation } from '../../contracts/operation';
import { DELIVERY_HEADERS, webhookBodies } from '../../contracts/webhooks';
import { access } from './access';
import { routeKey } from './route';

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

function schemaOf(schema: z.ZodType, components: Record<string, unknown>): unknown {
  const id = z.globalRegistry.get(schema)?.id;
  const converted = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io: 'output' });
  // Named schemas land in $defs; in OpenAPI they live under components.
  const json = JSON.parse(JSON.stringify(converted).replaceAll('"#/$defs/', '"#/components/schemas/')) as Record<string, unknown>;
  delete json.$schema;
  const defs = (json.$defs ?? {}) as Record<string, unknown>;
  delete json.$defs;
  Object.assign(components, defs);
  if (!id) return json;
  // zod moves a named root into $defs too (leaving only a $ref to it): never overwrite it with that $ref.
  if (!(id in defs)) components[id] = json;
  return ref(id);
}

function parameters(op: Operation, components: Record<string, unknown>) {
  const out: unknown[] = [];
  for (const [where, obj] of [['path', op.params], ['query', op.query]] as const) {
    if (!obj) continue;
    for (const [name, field] of Object.entries(obj.shape)) {
      const fieldSchema = field as z.ZodType;
      out.push({
        name,
        in: where,
        required: where === 'path' || !fieldSchema.safeParse(undefined).success,
        description: fieldSchema.description,
        schema: schemaOf(fieldSchema, components),
        ...(where === 'query' ? { explode: true } : {}),
      });
    }
  }
  return out;
}

const bodyContent = (op: Operation, schema: unknown) =>
  Object.fromEntries((op.bodyContentTypes ?? ['application/json']).map((type) => [type, { schema }]));

function security(op: Operation) {
  const rule = access[routeKey(op)];
  if (!rule || rule.kind === 'public') return { security: [] };
  if (rule.kind === 'scope') {
    return { security: [{ bearer: [rule.scope] }, { cookie: [] }], 'x-required-scope': rule.scope };
  }
  return { security: [{ bearer: [] }, { cookie: [] }], 'x-auth': rule.kind };
}

/** OpenAPI 3.1 `webhooks`: what we POST to a receiver, per type. */
function webhookDocs(components: Record<string, unknown>) {
  return Object.fromEntries(webhookBodies.map((w) => [w.type, {
    post: {
      summary: w.summary,
      parameters: DELIVERY_HEADERS.map(([name, description]) => ({ name, in: 'header', required: true, description, schema: { type: 'string' } })),
      requestBody: { required: true, content: { 'application/json': { schema: schemaOf(w.schema, components) } } },
      responses: { '2XX': { description: 'Received; any other answer (or none within the time-out) is retried' } },
    },
  }]));
}

export function buildOpenApi(operations: Operation[], serverUrl = '/api/v1') {
  const components: Record<string, unknown> = {};
  const paths: Record<string, Record<string, unknown>> = {};
  const errorRef = schemaOf(ErrorEnvelope, components);
  for (const op of operations) {
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(op.responses)) {
      const content: Record<string, unknown> = r.schema ? { [r.contentType ?? 'application/json']: { schema: schemaOf(r.schema, components) } } : {};
      // Failures found before the handler runs (unreadable body, auth) always answer in the JSON envelope.
      if (Number(status) >= 400 && r.contentType && r.contentType !== 'application/json') content['application/json'] = { schema: errorRef };
      responses[status] = { description: r.description, ...(Object.keys(content).length ? { content } : {}) };
    }
    const failure = op.errorSchema ? schemaOf(op.errorSchema, components) : errorRef;
    for (const status of ['400', '401', '403', '429']) {
      responses[status] ??= { description: 'Error', content: { 'application/json': { schema: failure } } };
    }
    responses.default = { description: 'Error', content: { 'application/json': { schema: failure } } };
    paths[op.path] ??= {};
    paths[op.path][op.method] = {
      operationId: `${op.method}${op.path.replace(/[{}]/g, '').replace(/[/-](\w)/g, (_, c: string) => c.toUpperCase())}`,
      summary: op.summary,
      description: op.description,
      tags: [op.tag],
      parameters: parameters(op, components),
      ...(op.body
        ? { requestBody: { required: true, content: bodyContent(op, schemaOf(op.body, components)) } }
        : {}),
      responses,
      ...security(op),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Calendar and planning API',
      version: '1.0.0',
      description:
        'Versioned REST API (v1 in the path). Writes answer with X-Calendar-Position; a read with ' +
        'X-Calendar-Min-Position waits until the read model has reached it. Every POST accepts Idempotency-Key.',
    },
    servers: [{ url: serverUrl }],
    paths,
    webhooks: webhookDocs(components),
    components: {
      schemas: components,
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'Session token (cs_…), API key (ck_…) or OAuth access token' },
        cookie: { type: 'apiKey', in: 'cookie', name: 'session' },
      },
    },
  };
}
