/**
 * Calls the running service's operator endpoints (`/admin`, bearer ADMIN_TOKEN) at ADMIN_URL, by default
 * http://127.0.0.1:$PORT. Every failure becomes one sentence saying what to check.
 */
import type { Config } from '../config';
import { CliError } from './context';

export interface AdminClient {
  call<T>(method: 'GET' | 'POST', route: string): Promise<T>;
}

export function adminClient(cfg: Config): AdminClient {
  const token = cfg.ADMIN_TOKEN;
  if (!token) throw new CliError('set ADMIN_TOKEN to the running service\'s value (or use --offline where the command has it)');
  const base = (process.env.ADMIN_URL ?? `http://127.0.0.1:${cfg.PORT}`).replace(/\/+$/, '');
  return {
    async call<T>(method: 'GET' | 'POST', route: string): Promise<T> {
      let res: Response;
      try {
        res = await fetch(`${base}/admin${route}`, { method, headers: { authorization: `Bearer ${token}` } });
      } catch (err) {
        const { cause } = err as { cause?: { code?: string; message?: string } };
        const reason = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
        throw new CliError(`cannot reach the service at ${base} (${reason}); is it running? set ADMIN_URL`);
      }
      const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
      if (res.status === 401) throw new CliError(`the service at ${base} refused ADMIN_TOKEN`);
      if (!res.ok) throw new CliError(body?.error?.message ?? `the service at ${base} answered ${res.status}`);
      return body as T;
    },
  };
}
