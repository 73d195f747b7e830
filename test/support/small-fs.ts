/**
 * A small filesystem of its own for a suite (a tmpfs mounted for it, which takes root or CAP_SYS_ADMIN). Where
 * mounting is impossible the suite is skipped with one visible line; REQUIRE_SMALL_FS=1 (CI) turns that skip into a
 * failure. The mount is always undone after the suite, its services stopped first (`body` stops what it starts in
 * its own afterAll, which runs before this one).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const mount = (dir: string, megabytes: number) => execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0700`, 'tmpfs', dir], { stdio: 'pipe' });
const unmount = (dir: string) => execFileSync('umount', [dir], { stdio: 'pipe' });

/** Why a tmpfs cannot be mounted here, or null when it can (tried once, on a throwaway directory). */
function cannotMount(): string | null {
  const dir = mkdtempSync(path.join(tmpdir(), 'small-fs-probe-'));
  try {
    mount(dir, 1);
    unmount(dir);
    return null;
  } catch (err) {
    return String((err as { stderr?: Buffer }).stderr ?? err).trim().split('\n')[0];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function describeOnSmallFilesystem(title: string, megabytes: number, body: (dir: () => string) => void): void {
  const refused = cannotMount();
  if (refused) {
    describe(`${title} [small filesystem]`, () => {
      if (process.env.REQUIRE_SMALL_FS === '1') {
        it(`needs a tmpfs (REQUIRE_SMALL_FS=1) but mounting one failed: ${refused}`, () => {
          throw new Error(`cannot mount a tmpfs: ${refused} (run as root or with CAP_SYS_ADMIN)`);
        });
      } else {
        it.skip(`skipped: cannot mount a tmpfs (${refused})`, () => undefined);
      }
    });
    return;
  }
  describe(`${title} [small filesystem: tmpfs ${megabytes} MB]`, () => {
    let dir: string | undefined;
    beforeAll(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'small-fs-'));
      mount(dir, megabytes);
    });
    afterAll(() => {
      if (!dir) return;
      try {
        unmount(dir);
      } catch {
        execFileSync('umount', ['-l', dir], { stdio: 'pipe' }); // still busy: detach it, it goes once unused
      }
      rmSync(dir, { recursive: true, force: true });
    });
    body(() => dir!);
  });
}

/** Takes every free byte of the filesystem at `dir` into one file; returns a function that frees them again. */
export function fillUp(dir: string): () => void {
  const file = path.join(dir, 'filler');
  const fd = openSync(file, 'w');
  try {
    for (const size of [2 ** 20, 2 ** 12, 1]) {
      const chunk = Buffer.alloc(size, 1);
      // Bounded: the filesystem is small, and each size stops at its first ENOSPC.
      for (let i = 0; i < 1 << 16; i++) {
        try {
          writeSync(fd, chunk);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw err;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return () => unlinkSync(file);
}
