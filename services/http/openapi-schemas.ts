/**
 * zod -> JSON Schema (draft 2020-12) for the OpenAPI document. Requests are published as their input side (fields
 * with defaults are optional), answers as their output side. Named schemas (`.meta({ id })`) land under
 * components.schemas and are referenced.
 */
import { z } from 'zod';

export type Side = 'input' | 'output';
type Json = Record<string, unknown>;

/**
 * Answers may gain fields in later versions, so a plain object is published open on both sides (zod would close
 * it on the output side); strict objects stay closed.
 */
function openAnswers(ctx: { zodSchema: unknown; jsonSchema: Json }): void {
  const def = (ctx.zodSchema as z.ZodType)._zod.def as { type: string; catchall?: unknown };
  if (def.type === 'object' && def.catchall === undefined) delete ctx.jsonSchema.additionalProperties;
}

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export class SchemaComponents {
  readonly schemas: Record<string, Json> = {};

  /** The JSON Schema of `schema` as `side` sees it; a named schema as a $ref unless `inline`. */
  convert(schema: z.ZodType, side: Side, inline = false): Json {
    const id = z.globalRegistry.get(schema)?.id;
    const converted = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io: side, override: openAnswers });
    // Named schemas land in $defs; in OpenAPI they live under components.
    const json = JSON.parse(JSON.stringify(converted).replaceAll('"#/$defs/', '"#/components/schemas/')) as Json;
    delete json.$schema;
    const defs = (json.$defs ?? {}) as Record<string, Json>;
    delete json.$defs;
    // zod moves a named root into $defs too, leaving only a $ref to it.
    const root = id && id in defs ? defs[id] : json;
    for (const [name, def] of Object.entries(defs)) if (name !== id || !inline) this.add(name, def);
    if (!id) return json;
    if (inline) return root;
    this.add(id, root);
    return ref(id);
  }

  /** One id, one schema: a named schema that reads differently as a request and as an answer needs two ids. */
  private add(id: string, json: Json): void {
    const existing = this.schemas[id];
    if (existing && !same(existing, json)) {
      throw new Error(`schema ${id} differs between requests and answers (defaults or transforms): give each side its own id`);
    }
    this.schemas[id] = json;
  }
}
