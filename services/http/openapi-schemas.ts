/**
 * zod -> JSON Schema (draft 2020-12) for the OpenAPI document. Requests are published as their input side (fields
 * with defaults are optional, the default said in the description), answers as their output side. Named schemas (`.meta({ id })`) land under
 * components.schemas and are referenced.
 */
import { z } from 'zod';
import { documentedShapeOf } from '../../contracts/common';

export type Side = 'input' | 'output';
type Json = Record<string, unknown>;

/**
 * Answers may gain fields in later versions, so a plain object is published open on both sides (zod would close
 * it on the output side); strict objects stay closed.
 */
function openObjects(ctx: { zodSchema: unknown; jsonSchema: Json }): void {
  const def = (ctx.zodSchema as z.ZodType)._zod.def as { type: string; catchall?: unknown };
  if (def.type === 'object' && def.catchall === undefined) delete ctx.jsonSchema.additionalProperties;
}

/**
 * A request field's default is said in words, not as `default`: generators such as openapi-typescript make a
 * field with a `default` required in the types they generate, so clients could not leave it out.
 */
function defaultInWords(ctx: { jsonSchema: Json }): void {
  const json = ctx.jsonSchema;
  if (json.default === undefined) return;
  const said = `Default: \`${JSON.stringify(json.default)}\`.`;
  json.description = json.description ? `${String(json.description).replace(/\.?$/, '.')} ${said}` : said;
  delete json.default;
}

/** zod leaves out the examples of a request schema with transforms (they describe its output); they are valid input too. */
function keepExamples(ctx: { zodSchema: unknown; jsonSchema: Json }): void {
  const examples = z.globalRegistry.get(ctx.zodSchema as z.ZodType)?.examples;
  if (examples && !ctx.jsonSchema.examples) ctx.jsonSchema.examples = examples;
}

/** A schema published as another shape (`documentedAs`) takes that shape's JSON Schema, keeping its own annotations. */
function documentedShape(ctx: { zodSchema: unknown; jsonSchema: Json }, side: Side): void {
  const shape = documentedShapeOf(ctx.zodSchema as z.ZodType);
  if (!shape) return;
  const { $schema: _s, ...json } = z.toJSONSchema(shape, { target: 'draft-2020-12', unrepresentable: 'any', io: side, override: overrides[side] }) as Json;
  const { description, examples } = ctx.jsonSchema;
  for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
  Object.assign(ctx.jsonSchema, json, description === undefined ? {} : { description }, examples === undefined ? {} : { examples });
}

const overrides: Record<Side, (ctx: { zodSchema: unknown; jsonSchema: Json }) => void> = {
  input: (ctx) => {
    documentedShape(ctx, 'input');
    openObjects(ctx);
    defaultInWords(ctx);
    keepExamples(ctx);
  },
  output: (ctx) => {
    documentedShape(ctx, 'output');
    openObjects(ctx);
  },
};

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
/** What openapi.ts adds to a request body's root after converting it (route.ts's rules), left out of comparisons. */
const withoutBodyRules = ({ additionalProperties: _a, minProperties: _m, ...rest }: Json) => rest;

export class SchemaComponents {
  readonly schemas: Record<string, Json> = {};

  /** The JSON Schema of `schema` as `side` sees it; a named schema as a $ref unless `inline`. */
  convert(schema: z.ZodType, side: Side, inline = false): Json {
    const id = z.globalRegistry.get(schema)?.id;
    const converted = z.toJSONSchema(schema, { target: 'draft-2020-12', unrepresentable: 'any', io: side, override: overrides[side] });
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

  /**
   * An example for every schema that has none of its own but can build one from its parts' examples (`{event}`
   * from Event's, a list from its item's); a required part without one leaves the schema without.
   */
  fillExamples(schema?: Json): void {
    for (const json of schema ? [schema] : Object.values(this.schemas)) {
      if (json.examples || json.$ref) continue;
      const example = this.exampleOf(json);
      if (example !== undefined) json.examples = [example];
    }
  }

  private exampleOf(schema: Json | undefined, depth = 0): unknown {
    if (!schema || depth > 12) return undefined;
    if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
    if ('const' in schema) return schema.const;
    if (typeof schema.$ref === 'string') return this.exampleOf(this.schemas[schema.$ref.split('/').pop()!], depth + 1);
    if (Array.isArray(schema.enum)) return schema.enum[0];
    if (schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'))) return null;
    const branches = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
    if (branches) {
      const ordered = [...branches.filter((b) => b.type !== 'null'), ...branches.filter((b) => b.type === 'null')];
      return ordered.map((b) => this.exampleOf(b, depth + 1)).find((e) => e !== undefined);
    }
    if (schema.type === 'array') {
      const item = this.exampleOf(schema.items as Json | undefined, depth + 1);
      return item === undefined ? undefined : [item];
    }
    if (!schema.properties) return undefined;
    const required = new Set((schema.required ?? []) as string[]);
    const example: Record<string, unknown> = {};
    for (const [name, property] of Object.entries(schema.properties as Record<string, Json>)) {
      const value = this.exampleOf(property, depth + 1);
      if (value !== undefined) example[name] = value;
      else if (required.has(name)) return undefined;
    }
    return Object.keys(example).length >= Number(schema.minProperties ?? 1) ? example : undefined;
  }

  /** One id, one schema: a named schema that reads differently as a request and as an answer needs two ids. */
  private add(id: string, json: Json): void {
    const existing = this.schemas[id];
    if (!existing) this.schemas[id] = json;
    else if (!same(withoutBodyRules(existing), withoutBodyRules(json))) {
      throw new Error(`schema ${id} differs between requests and answers (defaults or transforms): give each side its own id`);
    }
  }
}
