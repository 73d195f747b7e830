/**
 * The cross-field rule JSON Schema cannot state: a field declared with `laterThan` (contracts/common.ts) comes after
 * another field of the same object (or, with `x-not-before`, not before it), by at most `x-max-days-after` days for
 * dates. Numbers compare as numbers, dates and date-times as instants. Checked here for every operation's query and
 * body, nested objects and arrays included, so a slice only declares it.
 */
import { z } from 'zod';

interface OrderRule {
  field: string;
  earlier: string;
  orEqual: boolean;
  maxDays?: number;
}

type Issue = { path: string; message: string };

const DAY_MS = 86_400_000;
const rulesBySchema = new WeakMap<z.ZodObject, OrderRule[]>();

/** Looks through optional / nullable / default / catch wrappers and a pipe's input to the schema that holds a value. */
function unwrap(schema: z.ZodType): z.ZodType[] {
  const chain: z.ZodType[] = [];
  let current: z.ZodType | undefined = schema;
  while (current && chain.length < 10) {
    chain.push(current);
    const def = current._zod.def as { innerType?: z.ZodType; in?: z.ZodType };
    current = def.innerType ?? def.in;
  }
  return chain;
}

function ruleOf(field: string, schema: z.ZodType): OrderRule | undefined {
  for (const s of unwrap(schema)) {
    const meta = z.globalRegistry.get(s);
    const earlier = (meta?.['x-after'] ?? meta?.['x-not-before']) as string | undefined;
    if (earlier) return { field, earlier, orEqual: !meta?.['x-after'], maxDays: meta?.['x-max-days-after'] as number | undefined };
  }
  return undefined;
}

function rulesOf(schema: z.ZodObject): OrderRule[] {
  let rules = rulesBySchema.get(schema);
  if (!rules) {
    rules = Object.entries(schema.shape as Record<string, z.ZodType>)
      .map(([field, fieldSchema]) => ruleOf(field, fieldSchema))
      .filter((rule): rule is OrderRule => rule !== undefined);
    rulesBySchema.set(schema, rules);
  }
  return rules;
}

/** The gap later - earlier (ms for dates), or undefined when the two cannot be compared. */
function gap(later: unknown, earlier: unknown): { value: number; dates: boolean } | undefined {
  if (typeof later === 'number' && typeof earlier === 'number') return { value: later - earlier, dates: false };
  if (typeof later !== 'string' || typeof earlier !== 'string') return undefined;
  const value = Date.parse(later) - Date.parse(earlier);
  return Number.isNaN(value) ? undefined : { value, dates: true };
}

function check(rule: OrderRule, fields: Record<string, unknown>, path: string): Issue | undefined {
  const between = gap(fields[rule.field], fields[rule.earlier]);
  if (!between) return undefined;
  const at = `${path}.${rule.field}`;
  if (rule.orEqual ? between.value < 0 : between.value <= 0) {
    return { path: at, message: `must be ${rule.orEqual ? 'at or after' : 'after'} ${rule.earlier}` };
  }
  if (between.dates && rule.maxDays !== undefined && between.value > rule.maxDays * DAY_MS) {
    return { path: at, message: `at most ${rule.maxDays} days after ${rule.earlier}` };
  }
  return undefined;
}

/** Issues for `value` (already valid for `schema`): each declared pair present in it and out of order. */
export function fieldOrderIssues(schema: z.ZodType, value: unknown, path: string, out: Issue[] = []): Issue[] {
  if (typeof value !== 'object' || value === null) return out;
  const holder = unwrap(schema).find((s) => s instanceof z.ZodArray || s instanceof z.ZodObject);
  if (holder instanceof z.ZodArray && Array.isArray(value)) {
    value.forEach((item, i) => fieldOrderIssues(holder.element as z.ZodType, item, `${path}.${i}`, out));
  } else if (holder instanceof z.ZodObject && !Array.isArray(value)) {
    const fields = value as Record<string, unknown>;
    for (const rule of rulesOf(holder)) {
      const issue = check(rule, fields, path);
      if (issue) out.push(issue);
    }
    for (const [field, fieldSchema] of Object.entries(holder.shape as Record<string, z.ZodType>)) {
      fieldOrderIssues(fieldSchema, fields[field], `${path}.${field}`, out);
    }
  }
  return out;
}
