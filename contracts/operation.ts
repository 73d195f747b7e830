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
  /** Required unless `bodyOptional`: a request without a body is 400. Named (`.meta({ id, examples })`) like responses. */
  body?: z.ZodType;
  /** The body may be left out (api-spec.md marks it optional): the operation then reads it as `{}`. */
  bodyOptional?: boolean;
  /** Media types the body may come in; default JSON only. */
  bodyContentTypes?: string[];
  /**
   * The resource has a version: its 2xx answers with a body carry `ETag`, and PATCH/PUT/DELETE honour `If-Match`.
   * Every operation whose answer holds one resource with a `version` must say so (a test walks the document).
   */
  etag?: boolean;
  /**
   * Expensive to answer (the availability engine over many days): the caller gets a fair share of such requests
   * (services/http/fair-share.ts) and may be told 429 `too_many_concurrent_requests` or 503 `overloaded`.
   */
  heavy?: boolean;
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
