/**
 * The cross-field rule JSON Schema cannot state: a date-time declared with `DateTimeAfter` (contracts/common.ts)
 * comes after another field of the same object, by at most `x-max-days-after` days. Checked here for every
 * operation's query and body, so a slice only declares it.
 */
import { z } from 'zod';

interface OrderRule {
  field: string;
  after: string;
  maxDays?: number;
}

const DAY_MS = 86_400_000;
const rulesBySchema = new WeakMap<z.ZodType, OrderRule[]>();

/** The field's own metadata, looking through optional/nullable/default wrappers. */
function metaOf(schema: z.ZodType): Record<string, unknown> | undefined {
  let current: z.ZodType | undefined = schema;
  while (current) {
    const meta = z.globalRegistry.get(current);
    if (meta?.['x-after']) return meta;
    current = (current._zod.def as { innerType?: z.ZodType }).innerType;
  }
  return undefined;
}

function rulesOf(schema: z.ZodType): OrderRule[] {
  let rules = rulesBySchema.get(schema);
  if (!rules) {
    rules = [];
    if (schema instanceof z.ZodObject) {
      for (const [field, fieldSchema] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
        const meta = metaOf(fieldSchema);
        if (meta) rules.push({ field, after: meta['x-after'] as string, maxDays: meta['x-max-days-after'] as number | undefined });
      }
    }
    rulesBySchema.set(schema, rules);
  }
  return rules;
}

/** Issues for `value` (already valid for `schema`): each declared pair present in it and out of order. */
export function dateOrderIssues(schema: z.ZodType, value: unknown, where: string): { path: string; message: string }[] {
  if (typeof value !== 'object' || value === null) return [];
  const fields = value as Record<string, unknown>;
  const issues: { path: string; message: string }[] = [];
  for (const rule of rulesOf(schema)) {
    const later = fields[rule.field];
    const earlier = fields[rule.after];
    if (typeof later !== 'string' || typeof earlier !== 'string') continue;
    const gap = Date.parse(later) - Date.parse(earlier);
    const path = `${where}.${rule.field}`;
    if (gap <= 0) issues.push({ path, message: `must be after ${rule.after}` });
    else if (rule.maxDays !== undefined && gap > rule.maxDays * DAY_MS) {
      issues.push({ path, message: `at most ${rule.maxDays} days after ${rule.after}` });
    }
  }
  return issues;
}
