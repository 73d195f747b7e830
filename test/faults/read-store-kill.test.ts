/**
 * The embedded read store under SIGKILL (the built dist runs in a child process): three writers group-commit at
 * once, each writing documents and then its checkpoint after them, and tell every acknowledged checkpoint. After
 * the kill, each checkpoint on disk is at least the last one acknowledged, and every document before it is there.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';

const STORE = path.resolve(__dirname, '../../dist/services/readstore/embedded-read-store.js');
const WRITERS = 3;

const CHILD = `
const { openEmbeddedReadStore } = require(${JSON.stringify(STORE)});
(async () => {
  const store = await openEmbeddedReadStore(process.argv[1]);
  const docs = store.collection('docs');
  const checkpoints = store.collection('_checkpoints');
  await docs.ensureIndex(['writer', 'n']);
  const writer = async (w) => {
    for (let n = 1; ; n++) {
      await docs.putIfNewer({ _id: w + ':' + n, _pos: n, writer: w, n, text: 'x'.repeat(500) });
      await checkpoints.put({ _id: w, position: n });
      process.stdout.write(w + ' ' + n + '\\n');
    }
  };
  await Promise.all(Array.from({ length: ${WRITERS} }, (_, w) => writer('w' + w)));
})();
`;

const dir = mkdtempSync(path.join(tmpdir(), 'read-store-kill-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('keeps every acknowledged write and never a checkpoint ahead of its documents after SIGKILL', async () => {
  const file = path.join(dir, 'read-models.sqlite');
  const child = spawn(process.execPath, ['-e', CHILD, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const acked = new Map<string, number>();
  let buffered = '';
  await new Promise<void>((resolve, reject) => {
    child.on('exit', () => reject(new Error('the writer exited before it was killed')));
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        const [w, n] = line.split(' ');
        acked.set(w, Number(n));
      }
      if ([...acked.values()].filter((n) => n >= 300).length === WRITERS) resolve();
    });
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;

  const store = await openEmbeddedReadStore(file);
  try {
    for (const [w, last] of acked) {
      const checkpoint = (await store.collection('_checkpoints').get(w))?.position as number;
      expect(checkpoint).toBeGreaterThanOrEqual(last);
      const written = await store.collection('docs').find({ writer: w, n: { $lte: checkpoint } });
      expect(written).toHaveLength(checkpoint);
    }
  } finally {
    await store.close();
  }
});
