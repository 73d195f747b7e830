/**
 * Free-form JSON objects the apps attach (profile preferences, bug report diagnostics, automation action config):
 * any keys and values, within bounds the document states. Nesting is bounded first, by a walk that keeps its own
 * stack, so that no later check (a size measured with JSON.stringify, a copy) recurses through a hostile depth.
 */
import { z } from 'zod';

/** Levels of objects and arrays a free-form object may hold, itself included. */
export const MAX_JSON_DEPTH = 32;

interface Visit {
  value: unknown;
  depth: number;
  key: string | number;
  parent: Visit | null;
}

const pathOf = (visit: Visit): Array<string | number> => {
  const path: Array<string | number> = [];
  for (let at: Visit | null = visit; at?.parent; at = at.parent) path.unshift(at.key);
  return path;
};

/**
 * The path to the first object or array nested deeper than `limit` levels in `value` (which counts as level 1 when it
 * is one), or null when none is. It stops there: the work is bounded by `value`'s size up to that point.
 */
export function tooDeepAt(value: unknown, limit: number): Array<string | number> | null {
  const stack: Visit[] = [{ value, depth: 1, key: '', parent: null }];
  while (stack.length) {
    const visit = stack.pop()!;
    if (typeof visit.value !== 'object' || visit.value === null) continue;
    if (visit.depth > limit) return pathOf(visit);
    const entries = Array.isArray(visit.value) ? visit.value.entries() : Object.entries(visit.value);
    for (const [key, child] of entries) {
      if (typeof child === 'object' && child !== null) stack.push({ value: child, depth: visit.depth + 1, key, parent: visit });
    }
  }
  return null;
}

export interface FreeFormLimits {
  /** The keys of the top level (names, lengths). */
  key?: z.ZodString;
  maxKeys?: number;
  /** Size as UTF-8 JSON. */
  maxBytes?: number;
}

/** A JSON object of any shape within the bounds; `description` says what it is for, the bounds are appended. */
export function FreeFormObject(description: string, limits: FreeFormLimits = {}) {
  const { key = z.string(), maxKeys, maxBytes } = limits;
  const bounds = [
    `nested at most ${MAX_JSON_DEPTH} levels of objects and arrays`,
    ...(maxKeys ? [`at most ${maxKeys} keys`] : []),
    ...(maxBytes ? [`at most ${maxBytes} bytes as JSON`] : []),
  ];
  return z
    .record(key, z.unknown())
    .superRefine((value, ctx) => {
      const deep = tooDeepAt(value, MAX_JSON_DEPTH);
      if (deep) {
        ctx.addIssue({ code: 'custom', path: deep, message: `nested more than ${MAX_JSON_DEPTH} levels`, continue: false });
        return;
      }
      if (maxKeys && Object.keys(value).length > maxKeys) ctx.addIssue({ code: 'custom', message: `at most ${maxKeys} keys` });
      if (maxBytes && Buffer.byteLength(JSON.stringify(value)) > maxBytes) {
        ctx.addIssue({ code: 'custom', message: `must be at most ${maxBytes} bytes as JSON` });
      }
    })
    .describe(`${description}; ${bounds.join(', ')}`);
}
