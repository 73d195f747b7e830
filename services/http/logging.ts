import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { newId } from '../ids';

/** Gives every request an id (X-Request-Id, taken from the caller when it is sane) and a child logger. */
export function requestLogging(log: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const incoming = req.get('X-Request-Id');
    const requestId = incoming && /^[\w.:-]{1,100}$/.test(incoming) ? incoming : newId();
    const started = process.hrtime.bigint();
    res.locals.requestId = requestId;
    res.locals.log = log.child({ requestId });
    res.setHeader('X-Request-Id', requestId);
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      (res.locals.log as Logger).info(
        { method: req.method, path: req.path, status: res.statusCode, ms: Math.round(ms * 10) / 10 },
        'request',
      );
    });
    next();
  };
}
