/** Assertions on the error envelope, shared by the HTTP suites of the planning slices. */
import type { ApiResponse } from './service';

export function expectError(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(typeof res.body.error.message).toBe('string');
}

/** 400 invalid_request whose details.issues name `path` (when given). */
export function expectInvalid(res: ApiResponse, path?: string): void {
  expectError(res, 400, 'invalid_request');
  const issues = res.body.error.details?.issues as Array<{ path: string; message: string }>;
  expect(Array.isArray(issues) && issues.length > 0).toBe(true);
  if (path) expect(issues.map((i) => i.path)).toContain(path);
}

export const expectNotFound = (res: ApiResponse) => expectError(res, 404, 'not_found');
