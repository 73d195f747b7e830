/** What a handler answers; the route machinery sends it, the idempotency records keep it. */
export interface Reply {
  status: number;
  body?: unknown;
  /** A body already serialized to JSON (cached answers), sent as is instead of `body`; pieces one after another. */
  json?: Buffer | readonly Buffer[];
  /** An HTML page (the OAuth consent page), sent as text/html instead of `body`. */
  html?: string;
  /** A body of another media type (an iCalendar feed), already encoded. */
  text?: { type: string; body: Buffer };
  headers?: Record<string, string>;
  /** Log position of the last event this request appended. */
  position?: number | null;
  cookies?: string[];
}
