/**
 * The rules every operation's entry in /openapi.json keeps, walked over the live document so a new slice fails here
 * when it forgets one: examples that validate, requests as their input side, the headers each operation honours,
 * ETag on resources with a version, and the request-body rules route.ts enforces (checked against the server too).
 */
import { isTimeZone } from '../../contracts/common';
import { deref, jsonBodies, operationsOf, validatorFor, type Json } from '../support/openapi-doc';
import { request, useServiceWithUser } from '../support/service';

const svc = useServiceWithUser();
let doc: Json;
beforeAll(async () => {
  doc = (await request(svc.base.replace(/\/api\/v1$/, ''), 'GET', '/openapi.json')).body;
});

const apiOperations = () => operationsOf(doc).filter((o) => !o.webhook);
const schemaOf = (schema: Json) => deref(doc, schema);
const headerNames = (response: Json) => Object.keys(deref(doc, response).headers ?? {});
const parameterNames = (op: Json) => (op.parameters ?? []).map((p: Json) => `${deref(doc, p).in}:${deref(doc, p).name}`);

/** Every object schema reachable from `schema` (through $refs, properties, items and combinators), once. */
function objectsIn(schema: Json, seen = new Set<Json>()): Json[] {
  const s = schemaOf(schema);
  if (!s || typeof s !== 'object' || seen.has(s)) return [];
  seen.add(s);
  const children = [
    ...Object.values((s.properties ?? {}) as Json), s.items, ...(s.prefixItems ?? []), ...(s.anyOf ?? []), ...(s.oneOf ?? []),
    ...(s.allOf ?? []), typeof s.additionalProperties === 'object' ? s.additionalProperties : undefined,
  ].filter(Boolean) as Json[];
  return [...(s.properties ? [s] : []), ...children.flatMap((child) => objectsIn(child, seen))];
}

describe('examples', () => {
  it('every JSON request and response body schema carries at least one example, and each validates against it', () => {
    const validate = validatorFor(doc, isTimeZone);
    const bodies = jsonBodies(doc);
    expect(bodies.length).toBeGreaterThan(50);
    const problems: string[] = [];
    for (const { label, schema } of bodies) {
      const examples = schemaOf(schema).examples;
      const name = schema.$ref ?? 'inline schema';
      if (!Array.isArray(examples) || examples.length === 0) {
        problems.push(`${label}: ${name} has no examples`);
        continue;
      }
      const check = validate(schema);
      for (const example of examples) {
        if (!check(example)) problems.push(`${label}: ${name} example does not validate: ${JSON.stringify(check.errors?.slice(0, 3))}`);
      }
    }
    expect([...new Set(problems)]).toEqual([]);
  });
});

/** Bodies api-spec.md leaves optional: `POST /focus` ("optional body"), `POST /projects/{id}/lists` ("none specified"). */
const OPTIONAL_BODIES = ['POST /focus', 'POST /projects/{id}/lists'];

describe('requests are published as clients send them', () => {
  it('no request schema carries `default` (generators would make the field required); its description says it', () => {
    const problems = apiOperations().flatMap(({ label, op }) => {
      const bodies = Object.values((op.requestBody?.content ?? {}) as Json).map((m) => m.schema);
      const params = (op.parameters ?? []).map((p: Json) => deref(doc, p));
      return [
        ...bodies.flatMap((schema) => objectsIn(schema)).flatMap((o) => Object.entries(o.properties as Json)
          .filter(([, p]) => schemaOf(p)?.default !== undefined).map(([name]) => `${label} body.${name}`)),
        ...params.filter((p: Json) => p.schema?.default !== undefined).map((p: Json) => `${label} ${p.in}.${p.name}`),
      ];
    });
    expect([...new Set(problems)]).toEqual([]);
  });

  it('every body is required but those the spec makes optional; PATCH bodies need a field', () => {
    const withBody = apiOperations().filter((o) => o.op.requestBody);
    expect(withBody.length).toBeGreaterThan(10);
    const optional = withBody.filter((o) => !o.op.requestBody.required).map((o) => o.label).sort();
    expect(optional).toEqual(OPTIONAL_BODIES);
    for (const { label, method, op } of withBody) {
      if (method === 'patch') {
        const schema = schemaOf(op.requestBody.content['application/json'].schema);
        expect({ label, minProperties: schema.minProperties }).toEqual({ label, minProperties: 1 });
      }
    }
  });
});

describe('headers, declared where the machinery honours them', () => {
  it('every POST takes Idempotency-Key, every GET X-Calendar-Min-Position', () => {
    for (const { label, method, op } of apiOperations()) {
      const names = parameterNames(op);
      if (method === 'post') expect({ label, names }).toEqual({ label, names: expect.arrayContaining(['header:Idempotency-Key']) });
      if (method === 'get') expect({ label, names }).toEqual({ label, names: expect.arrayContaining(['header:X-Calendar-Min-Position']) });
    }
  });

  it('every answer carries RateLimit-* (but 414, refused before counting); 429 and 503 Retry-After; 3xx Location; 2xx writes X-Calendar-Position', () => {
    for (const { label, method, op } of apiOperations()) {
      expect({ label, has429: '429' in op.responses, has503: '503' in op.responses }).toEqual({ label, has429: true, has503: true });
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const names = headerNames(response);
        const expected = status === '414' ? [] : ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
        if (status === '429' || status === '503') expected.push('Retry-After');
        if (status.startsWith('3')) expected.push('Location');
        if (status.startsWith('2') && method !== 'get') expected.push('X-Calendar-Position');
        expect({ label, status, names }).toEqual({ label, status, names: expect.arrayContaining(expected) });
      }
    }
  });

  it('an answer holding one resource with a version carries ETag, and that resource\'s PATCH/PUT/DELETE take If-Match', () => {
    const versioned = (schema: Json) => Object.values((schemaOf(schema)?.properties ?? {}) as Json).some((p) => schemaOf(p)?.properties?.version);
    const etagPaths = new Set<string>();
    const problems: string[] = [];
    for (const { label, path, op } of apiOperations()) {
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const media = deref(doc, response).content?.['application/json'];
        if (!status.startsWith('2') || !media || !versioned(media.schema)) continue;
        etagPaths.add(path);
        if (!headerNames(response).includes('ETag')) problems.push(`${label} ${status}: no ETag (mark the operation etag: true)`);
      }
    }
    for (const { label, method, path, op } of apiOperations()) {
      if (!['patch', 'put', 'delete'].includes(method) || !etagPaths.has(path)) continue;
      if (!parameterNames(op).includes('header:If-Match')) problems.push(`${label}: no If-Match (mark the operation etag: true)`);
    }
    expect(etagPaths.size).toBeGreaterThan(0);
    expect(problems).toEqual([]);
  });
});

describe('the server keeps the body rules the document states', () => {
  // Its signature is checked before anything else (401, or 404 while the operator has not configured it).
  const signed = new Set(['POST /integrations/inbound']);
  const concrete = (path: string) => path.replace(/\{[^}]+\}/g, '00000000-0000-4000-8000-000000000000');
  const required = () => apiOperations().filter((o) => o.op.requestBody?.required && !signed.has(o.label));

  it('a request without a required body is 400 invalid_request, also when its content type says JSON', async () => {
    for (const { label, method, path } of required()) {
      for (const headers of [{}, { 'content-type': 'application/json' }] as Record<string, string>[]) {
        const res = await fetch(`${svc.base}${concrete(path)}`, { method: method.toUpperCase(), headers: { authorization: `Bearer ${svc.user.token}`, ...headers } });
        const body = (await res.json()) as Json;
        expect({ label, headers, status: res.status, code: body.error?.code ?? body.error }).toEqual({ label, headers, status: 400, code: 'invalid_request' });
      }
    }
  });

  it('an optional body may be left out: the answer is one the operation documents, not 400', async () => {
    for (const { label, method, path, op } of apiOperations().filter((o) => OPTIONAL_BODIES.includes(o.label))) {
      for (const headers of [{}, { 'content-type': 'application/json' }] as Record<string, string>[]) {
        const res = await fetch(`${svc.base}${concrete(path)}`, { method: method.toUpperCase(), headers: { authorization: `Bearer ${svc.user.token}`, ...headers } });
        const documented = res.status !== 400 && String(res.status) in op.responses;
        expect({ label, headers, status: res.status, documented }).toEqual({ label, headers, status: res.status, documented: true });
      }
    }
  });

  it('PATCH with {} is 400 invalid_request (where PATCH takes a body)', async () => {
    const patches = apiOperations().filter((o) => o.method === 'patch' && o.op.requestBody);
    expect(patches.length).toBeGreaterThan(0);
    for (const { label, path } of patches) {
      const res = await svc.user.call('PATCH', concrete(path), {});
      expect({ label, status: res.status, code: res.body.error?.code }).toEqual({ label, status: 400, code: 'invalid_request' });
    }
  });
});
