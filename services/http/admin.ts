/**
 * Operator endpoints, outside the public API: projection status (position, lag, dead letters) and rebuild, guests'
 * mail (the outbox), and the erasure of a user (services/history/erasure.ts; answers once the read models dropped their
 * rows). Enabled by ADMIN_TOKEN. A rebuild is requested in the projection registry, which every projector process
 * polls, so it works wherever the API runs.
 */
import { Router, type NextFunction, type Request, type Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { DeadLetters } from '../../projections/dead-letters';
import { Uuid } from '../../contracts/common';
import { projectionHealth, type HealthSources } from '../../projections/health';
import { changeRegistry, registryDocs } from '../../projections/registry';
import { CHECKPOINTS } from '../../projections/watermarks';
import type { AppContext } from '../app-context';
import { ApiError, invalid } from '../errors';
import { eraseUser } from '../history/erasure';
import { MAIL_STATES, MailLog, type MailState } from '../mail/mail-log';

function authorized(req: Request, token: string): boolean {
  const given = Buffer.from(req.get('Authorization') ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * The log head and, per projection, its health, registry entry, dead letters (count and latest) and the position of
 * the storage being built, if any. Also read by the CLI straight from the stores when the service is stopped.
 */
export async function projectionsReport(sources: HealthSources) {
  const { head, projections } = await projectionHealth(sources);
  const deadLetters = new DeadLetters(sources.store);
  const registry = registryDocs(sources.store);
  const checkpoints = sources.store.collection(CHECKPOINTS);
  return {
    head,
    projections: await Promise.all(
      projections.map(async ({ deadLetters: count, ...p }) => {
        const reg = await registry.get(p.name);
        const latest = reg?.active ? await deadLetters.latest(reg.active) : [];
        const building = reg?.building
          ? { storage: reg.building, position: ((await checkpoints.get(reg.building))?.position as number | undefined) ?? 0 }
          : null;
        return { ...p, registry: reg, building, deadLetters: { count, latest } };
      }),
    ),
  };
}

export type ProjectionsReport = Awaited<ReturnType<typeof projectionsReport>>;

export function adminRouter(app: AppContext): Router {
  const router = Router();
  const token = app.config.ADMIN_TOKEN;
  router.use((req: Request, _res: Response, next: NextFunction) => {
    if (!token) return next(new ApiError(404, 'not_found', 'Admin endpoints are disabled (set ADMIN_TOKEN)'));
    if (!authorized(req, token)) return next(new ApiError(401, 'unauthenticated', 'Admin token required'));
    next();
  });

  router.get('/projections', async (_req, res) => {
    res.json(await projectionsReport(app));
  });

  router.post('/projections/:name/rebuild', async (req, res) => {
    const { after } = await changeRegistry(app.store, req.params.name, (reg) => reg && { ...reg, rebuildRequested: true });
    if (!after) throw new ApiError(404, 'not_found', `No projection named ${req.params.name}`);
    res.status(202).json({ name: after._id, rebuildRequested: true });
  });

  /** The latest messages to guests, newest first; `?state=outbox` lists what was kept without SMTP_URL. */
  router.get('/mail', async (req, res) => {
    const state = req.query.state;
    if (state !== undefined && !MAIL_STATES.includes(state as MailState)) {
      throw new ApiError(400, 'invalid_request', `state must be one of ${MAIL_STATES.join(', ')}`, { issues: [{ path: 'query.state', message: 'unknown state' }] });
    }
    res.json({ mail: await new MailLog(app.store).recent(state as MailState | undefined) });
  });

  router.post('/users/:id/erase', async (req, res) => {
    if (!Uuid.safeParse(req.params.id).success) throw invalid('id must be a user id', [{ path: 'params.id', message: 'not a uuid' }]);
    const erased = await eraseUser(app, req.params.id);
    const applied = await app.watermarks.waitFor(app.projectionNames, erased.position, app.config.MIN_POSITION_WAIT_MS);
    res.set('X-Calendar-Position', String(erased.position)).status(200).json({ ...erased, applied });
  });
  return router;
}
