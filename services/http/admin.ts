/**
 * Operator endpoints, outside the public API: projection status (position, lag, dead letters), rebuild, and the
 * erasure of a user (services/history/erasure.ts; answers once the read models dropped their rows). Enabled
 * by ADMIN_TOKEN. A rebuild is requested in the projection registry, which every projector process polls, so it
 * works wherever the API runs.
 */
import { Router, type NextFunction, type Request, type Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import { DeadLetters } from '../../projections/dead-letters';
import { projectionHealth } from '../../projections/health';
import { REGISTRY, type RegistryDoc } from '../../projections/watermarks';
import { Uuid } from '../../contracts/common';
import type { AppContext } from '../app-context';
import { ApiError, invalid } from '../errors';
import { eraseUser } from '../history/erasure';

function authorized(req: Request, token: string): boolean {
  const given = Buffer.from(req.get('Authorization') ?? '');
  const expected = Buffer.from(`Bearer ${token}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

export function adminRouter(app: AppContext): Router {
  const router = Router();
  const token = app.config.ADMIN_TOKEN;
  router.use((req: Request, _res: Response, next: NextFunction) => {
    if (!token) return next(new ApiError(404, 'not_found', 'Admin endpoints are disabled (set ADMIN_TOKEN)'));
    if (!authorized(req, token)) return next(new ApiError(401, 'unauthenticated', 'Admin token required'));
    next();
  });
  const registry = () => app.store.collection<RegistryDoc>(REGISTRY);

  router.get('/projections', async (_req, res) => {
    const { head, projections } = await projectionHealth(app);
    const deadLetters = new DeadLetters(app.store);
    res.json({
      head,
      projections: await Promise.all(
        projections.map(async ({ deadLetters: count, ...p }) => {
          const reg = await registry().get(p.name);
          const latest = reg?.active ? await deadLetters.latest(reg.active) : [];
          return { ...p, registry: reg, deadLetters: { count, latest } };
        }),
      ),
    });
  });

  router.post('/projections/:name/rebuild', async (req, res) => {
    const reg = await registry().get(req.params.name);
    if (!reg) throw new ApiError(404, 'not_found', `No projection named ${req.params.name}`);
    await registry().put({ ...reg, rebuildRequested: true });
    res.status(202).json({ name: reg._id, rebuildRequested: true });
  });

  router.post('/users/:id/erase', async (req, res) => {
    if (!Uuid.safeParse(req.params.id).success) throw invalid('id must be a user id', [{ path: 'params.id', message: 'not a uuid' }]);
    const erased = await eraseUser(app, req.params.id);
    const applied = await app.watermarks.waitFor(app.projectionNames, erased.position, app.config.MIN_POSITION_WAIT_MS);
    res.set('X-Calendar-Position', String(erased.position)).status(200).json({ ...erased, applied });
  });
  return router;
}
