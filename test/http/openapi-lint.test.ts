/** `redocly lint` with its recommended rules over the live /openapi.json: no errors. */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { request, useTestService } from '../support/service';

const run = promisify(execFile);
const REDOCLY = path.join(__dirname, '../../node_modules/.bin/redocly');

let root: string;
useTestService((svc) => {
  root = svc.base.replace(/\/api\/v1$/, '');
});

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: { pointer: string }[];
}

it('redocly lint (recommended) finds no errors in /openapi.json', async () => {
  const doc = (await request(root, 'GET', '/openapi.json')).body;
  const dir = mkdtempSync(path.join(tmpdir(), 'redocly-'));
  try {
    writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc));
    // Exits non-zero when it finds errors; the report on stdout is what counts.
    const { stdout } = await run(REDOCLY, ['lint', 'openapi.json', '--extends', 'recommended', '--format', 'json'], {
      cwd: dir, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, maxBuffer: 64 * 1024 * 1024,
    }).catch((err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }));
    const report = JSON.parse(stdout) as { totals: { errors: number }; problems: Problem[] };
    const errors = report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId} at ${p.location[0]?.pointer}: ${p.message}`);
    expect(errors).toEqual([]);
    expect(report.totals.errors).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
