/**
 * caldav-server-tester 1.7 (the python caldav project's server checker) against the service: every feature it finds
 * short of full support must be one the service does not claim (test/support/dav-unclaimed.json, each with why);
 * the report is printed.
 */
import { davClientOf } from '../support/dav';
import { describeWithTool, missingTool, run } from '../support/dav-tools';
import { signUp, useTestService } from '../support/service';
import UNCLAIMED from '../support/dav-unclaimed.json';

const missing = missingTool('caldav-server-tester', ['--version']);

describeWithTool('caldav-server-tester against /dav/ [dav-clients]', missing, 'pip install caldav-server-tester==1.7.0', () => {
  let base: string;
  useTestService((s) => (base = s.base));

  it('finds every claimed feature supported', async () => {
    const user = await signUp(base);
    const dav = await davClientOf(base, user);
    const origin = base.replace(/\/api\/v1$/, '');
    const out = await run('caldav-server-tester', [
      '--caldav-url', `${origin}/dav/`, '--caldav-username', dav.username, '--caldav-password', dav.key, '--format', 'json',
    ], { timeoutMs: 150_000 });
    expect(out.status).toBe(0);
    const features = JSON.parse(out.stdout).features as Record<string, { support: string; behaviour?: string }>;
    const lines = Object.entries(features).map(([name, f]) => `${f.support.padEnd(12)} ${name}${f.behaviour ? `: ${f.behaviour.slice(0, 160)}` : ''}`);
    console.log(`caldav-server-tester report (features at full support by default are not listed):\n${lines.join('\n')}`);
    const unexpected = Object.entries(features).filter(([name, f]) => f.support !== 'full' && !(name in UNCLAIMED)).map(([name, f]) => `${name}: ${f.support} ${f.behaviour ?? ''}`);
    expect(unexpected).toEqual([]);
    expect(features['auth.www-authenticate']?.support ?? 'full').toBe('full');
  }, 180_000);
});
