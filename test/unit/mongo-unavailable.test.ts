/**
 * Which MongoDB driver errors mean "the store cannot take this now" (503 store_unavailable, Retry-After) rather than
 * a fault in the request or the code (500): not reachable, or busy.
 */
import { MongoNetworkError, MongoServerError } from 'mongodb';
import { unavailable } from '../../services/readstore/mongo-read-store';

const serverError = (fields: Record<string, unknown>) => new MongoServerError({ message: 'x', ...fields } as never);

it('counts a network failure, SQLITE_BUSY from FerretDB and a retryable write as unavailable', () => {
  expect(unavailable(new MongoNetworkError('connection reset'))).toBe(true);
  expect(unavailable(serverError({ message: 'sqlite: step: database is locked (5) (SQLITE_BUSY)', code: 1 }))).toBe(true);
  expect(unavailable(serverError({ message: 'not primary', code: 10107, errorLabels: ['RetryableWriteError'] }))).toBe(true);
});

it('leaves a duplicate key, a bad query and plain errors alone', () => {
  expect(unavailable(serverError({ message: 'E11000 duplicate key error', code: 11000 }))).toBe(false);
  expect(unavailable(serverError({ message: 'unknown operator: $foo', code: 2 }))).toBe(false);
  expect(unavailable(new Error('SQLITE_BUSY'))).toBe(false);
});
