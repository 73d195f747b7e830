/** Walking an OpenAPI document as a client generator would: $refs, operations, and the JSON bodies they carry. */
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

export type Json = Record<string, any>;

/** Every `$ref` anywhere in a JSON value. */
export function refsIn(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) for (const v of value) refsIn(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsIn(v, out);
    }
  }
  return out;
}

export function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!node || typeof node !== 'object' || !(key in (node as object))) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** The object itself, or what its $ref points at (one level, as OpenAPI's reusable objects are used). */
export const deref = (doc: Json, value: Json): Json => (typeof value?.$ref === 'string' ? (resolvePointer(doc, value.$ref) as Json) : value);

export interface DocOperation {
  label: string;
  method: string;
  path: string;
  op: Json;
  webhook: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function operationsOf(doc: Json): DocOperation[] {
  const out: DocOperation[] = [];
  for (const [section, webhook] of [['paths', false], ['webhooks', true]] as const) {
    for (const [path, item] of Object.entries((doc[section] ?? {}) as Json)) {
      for (const method of METHODS) {
        if (item[method]) out.push({ label: `${webhook ? 'webhook ' : ''}${method.toUpperCase()} ${path}`, method, path, op: item[method], webhook });
      }
    }
  }
  return out;
}

export interface Body {
  label: string;
  /** As written in the operation: a $ref or an inline schema. */
  schema: Json;
}

/** Every JSON request and response body of the document (webhook deliveries included). */
export function jsonBodies(doc: Json): Body[] {
  const out: Body[] = [];
  for (const { label, op } of operationsOf(doc)) {
    const request = op.requestBody?.content ?? {};
    for (const [type, media] of Object.entries(request as Json)) {
      if (type.includes('json')) out.push({ label: `${label} request`, schema: media.schema });
    }
    for (const [status, response] of Object.entries((op.responses ?? {}) as Json)) {
      const media = deref(doc, response).content?.['application/json'];
      if (media) out.push({ label: `${label} ${status}`, schema: media.schema });
    }
  }
  return out;
}

/** An ajv (draft 2020-12) that knows the document's components and the formats it uses. */
export function validatorFor(doc: Json, isTimeZone: (value: string) => boolean) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('time-zone', isTimeZone);
  ajv.addSchema({ $id: 'openapi.json', components: doc.components });
  // Inline schemas point into the components as `#/components/...`: make those pointers absolute.
  return (schema: Json) => ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"openapi.json#/components/')));
}
