/** The rejection of `withTimeout` when the work did not answer in time (it may still finish later, unobserved). */
export class TimeoutError extends Error {
  override name = 'TimeoutError';
}

/** `work`, or a TimeoutError naming `what` once `ms` passed without an answer. */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimeoutError(`${what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
