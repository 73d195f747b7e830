/** isStorageFull knows a full disk in each engine's words, through wrapping causes, and nothing else. */
import { isStorageFull } from '../../services/errors';

const withCode = (message: string, fields: Record<string, unknown>) => Object.assign(new Error(message), fields);

describe('isStorageFull', () => {
  it.each([
    ['SQLite (better-sqlite3)', withCode('database or disk is full', { code: 'SQLITE_FULL' })],
    ['the system', withCode('ENOSPC: no space left on device, write', { code: 'ENOSPC', errno: -28 })],
    ['MongoDB', withCode('Out of disk space', { code: 14031, codeName: 'OutOfDiskSpace' })],
    ['an engine passing the system\'s message on', new Error('13 INTERNAL: write failed: No space left on device')],
    ['a wrapped cause', new Error('append failed', { cause: withCode('disk full', { code: 'SQLITE_FULL' }) })],
  ])('recognises %s', (_label, err) => {
    expect(isStorageFull(err)).toBe(true);
  });

  it.each([
    ['a busy database', withCode('database is locked', { code: 'SQLITE_BUSY' })],
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:27017', { code: 'ECONNREFUSED' })],
    ['a plain bug', new TypeError('Cannot read properties of undefined')],
    ['not an error', 'SQLITE_FULL but only a string'],
    ['nothing', undefined],
  ])('does not take %s for a full disk', (_label, err) => {
    expect(isStorageFull(err)).toBe(false);
  });
});
