import { bugReportOperations, type BugReport } from '../../contracts/bug-reports';
import { findOperation } from '../../contracts/operation';
import type { PageQuery } from '../../contracts/paging';
import { BUG_REPORTS } from '../../projections/bug-reports.projection';
import { publicView } from '../../projections/read-models';
import type { AppContext } from '../../services/app-context';
import { route } from '../../services/http/route';
import { pageOf } from '../shared/paging';

export function bugReportsReadRoutes(app: AppContext) {
  return [
    route<unknown, PageQuery>(findOperation(bugReportOperations, 'get', '/bug-reports'), async ({ query, principal }) => {
      const reports = (await app.readModels.docs(BUG_REPORTS))('reports');
      const page = await pageOf(reports, { userId: principal!.userId }, '_sortKey', query, -1);
      return { status: 200, body: { bugReports: page.items.map((d) => publicView<BugReport>(d)), nextPageToken: page.nextPageToken } };
    }),
  ];
}
