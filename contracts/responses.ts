/** Failure answers that many operations document alike. */
import { ErrorEnvelope } from './common';

export const notFoundAnswer = (what: string) => ({ description: `Not found (also for ${what} of other people)`, schema: ErrorEnvelope });

export const staleEtagAnswer = { description: '`If-Match` carried a stale ETag (`version_mismatch`)', schema: ErrorEnvelope };
