/** Bug reports people send from the apps: each person sees only their own. */
import { z } from 'zod';
import { DateTime, NonBlankText, Uuid } from './common';
import { FreeFormObject } from './free-form';
import { NextPageToken, PageQuery } from './paging';
import { op } from './operation';

export const MAX_DIAGNOSTICS_BYTES = 16_384;

const example = {
  id: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e',
  userId: '5d2c8e3a-1b4f-4c6d-8e9a-0f1b2c3d4e5f',
  message: 'The week view jumps back to today after I save an event.',
  expected: 'It should stay on the week I was looking at.',
  pagePath: '/calendar/week/2026-12-07',
  diagnostics: { appVersion: '3.4.1', platform: 'web', userAgent: 'Mozilla/5.0 (Macintosh)' },
  createdAt: '2026-11-23T10:15:00.000Z',
};

const Diagnostics = FreeFormObject('Any JSON object the app attaches (versions, settings, recent errors)', {
  key: z.string().max(100),
  maxBytes: MAX_DIAGNOSTICS_BYTES,
});

export const BugReport = z
  .object({
    id: Uuid,
    userId: Uuid,
    message: z.string(),
    expected: z.string().nullable(),
    pagePath: z.string().nullable(),
    diagnostics: z.record(z.string(), z.unknown()),
    createdAt: DateTime,
  })
  .meta({ id: 'BugReport', examples: [example] });
export type BugReport = z.infer<typeof BugReport>;

export const CreateBugReportBody = z
  .object({
    message: NonBlankText(5_000),
    expected: z.string().trim().max(5_000).optional(),
    pagePath: z.string().max(2_000).optional(),
    diagnostics: Diagnostics.optional(),
  })
  .meta({
    id: 'CreateBugReportBody',
    examples: [{ message: example.message, expected: example.expected, pagePath: example.pagePath, diagnostics: example.diagnostics }],
  });
export type CreateBugReportBody = z.infer<typeof CreateBugReportBody>;

export const BugReportResponse = z
  .object({ bugReport: BugReport })
  .meta({ id: 'BugReportResponse', examples: [{ bugReport: example }] });

export const BugReportListResponse = z
  .object({ bugReports: z.array(BugReport), nextPageToken: NextPageToken })
  .meta({ id: 'BugReportListResponse', examples: [{ bugReports: [example], nextPageToken: null }] });

export const ListBugReportsQuery = PageQuery;

export const bugReportOperations = [
  op({
    method: 'get', path: '/bug-reports', tag: 'Bug reports', summary: 'The caller\'s own bug reports, newest first',
    query: ListBugReportsQuery,
    responses: { 200: { description: 'Bug reports', schema: BugReportListResponse } },
  }),
  op({
    method: 'post', path: '/bug-reports', tag: 'Bug reports', summary: 'Report a bug', body: CreateBugReportBody,
    responses: { 201: { description: 'Received', schema: BugReportResponse } },
  }),
];
