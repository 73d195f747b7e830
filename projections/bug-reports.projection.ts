/** Bug reports by reporter, newest first (GET /bug-reports). */
import { BugReport } from '../contracts/bug-reports';
import { creationOrderKey } from './creation-order';
import { projection } from './projection';

export const BUG_REPORTS = 'bug-reports';

export const bugReportsProjection = projection({
  name: BUG_REPORTS,
  version: 2, // v2: erasure stamps on every document
  collections: { reports: { indexes: [['userId', '_sortKey']] } },
  handles: ['bug_report.submitted'],
  async apply(e, docs) {
    const parsed = BugReport.safeParse(e.data);
    if (!parsed.success) return;
    const report = parsed.data;
    const reports = docs('reports');
    await reports.putIfNewer({ ...report, _id: report.id, _pos: e.position, _sortKey: await creationOrderKey(reports, report.id, e.position) });
  },
});
