/** Helpers of the OAuth suites: requests as a browser's form or a client sends them, without following redirects. */
import { createHash, randomBytes } from 'node:crypto';

export interface Raw {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

export interface RawOptions {
  headers?: Record<string, string>;
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded; undefined values are left out. */
  form?: Record<string, string | undefined>;
}

/** `base + path`'s answer as it came (a redirect is not followed), its body parsed as JSON when it is JSON. */
export async function rawRequest(base: string, method: string, path: string, opts: RawOptions = {}): Promise<Raw> {
  const headers: Record<string, string> = { ...opts.headers };
  let body: string | undefined;
  if (opts.json !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(opts.json);
  } else if (opts.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = queryOf(opts.form);
  }
  const res = await fetch(`${base}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: res.status, headers: res.headers, text, body: parsed };
}

export const queryOf = (params: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(params).filter(([, v]) => v !== undefined) as Array<[string, string]>).toString();

/** A PKCE verifier and its S256 challenge (RFC 7636). */
export function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}
