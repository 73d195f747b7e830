import type { z } from 'zod';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
}

/** One HTTP operation: the single description that validation, auth lookup and OpenAPI all read. */
export interface Operation {
  method: Method;
  /** OpenAPI path below the base path, e.g. `/events/{id}`. */
  path: string;
  summary: string;
  tag: string;
  description?: string;
  params?: z.ZodObject;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Media types the body may come in; default JSON only. */
  bodyContentTypes?: string[];
  /** The body of every failure, when it is not the error envelope (the OAuth token endpoint's RFC 6749 errors). */
  errorSchema?: z.ZodType;
  responses: Record<number, ResponseSpec>;
}

export const op = (o: Operation): Operation => o;

export function findOperation(ops: Operation[], method: Method, path: string): Operation {
  const found = ops.find((o) => o.method === method && o.path === path);
  if (!found) throw new Error(`no contract operation for ${method} ${path}`);
  return found;
}
