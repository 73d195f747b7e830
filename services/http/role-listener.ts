/**
 * METRICS_PORT: a small listener every role process can open (the projector, relay, dispatcher and automations serve
 * no other HTTP) with its own /metrics, /healthz and /readyz, for Prometheus and for probes. Nothing else is served.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Metrics } from './metrics';
import type { Readiness } from './readiness';

const json = (res: ServerResponse, status: number, body: unknown) =>
  void res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));

export async function startRoleListener(
  port: number,
  host: string,
  metrics: Metrics,
  ready: () => Promise<Readiness>,
  log: Logger,
): Promise<Server> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET' && req.method !== 'HEAD') return json(res, 405, { error: { code: 'method_not_allowed', message: 'Use GET' } });
    const answer = async () => {
      if (path === '/healthz') return json(res, 200, { status: 'ok' });
      if (path === '/readyz') {
        const r = await ready();
        return json(res, r.status === 'not_ready' ? 503 : 200, r);
      }
      if (path === '/metrics') {
        const { contentType, text } = await metrics.render();
        return void res.writeHead(200, { 'content-type': contentType }).end(text);
      }
      json(res, 404, { error: { code: 'not_found', message: 'Only /metrics, /healthz and /readyz are served here' } });
    };
    answer().catch((err: unknown) => {
      log.error({ err, path }, 'metrics listener failed');
      if (!res.headersSent) json(res, 500, { error: { code: 'internal_error', message: 'Something went wrong on our side' } });
    });
  });
  await new Promise<void>((resolve, reject) => server.listen(port, host, resolve).once('error', reject));
  return server;
}
