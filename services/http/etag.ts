/** Strong ETags derive from a resource version (events, tasks, ...); If-Match accepts one, a list, or `*`. */
export const etagOf = (version: number) => `"v${version}"`;

/**
 * The versions an If-Match allows: undefined when there is none (or `*`). Entries that are not our ETags can never
 * match, so an unparseable header yields an empty list (412 for those who may see the event, 404 for others).
 */
export function expectedVersions(ifMatch: string | undefined): number[] | undefined {
  if (ifMatch === undefined || ifMatch.trim() === '*') return undefined;
  const versions: number[] = [];
  for (const tag of ifMatch.split(',')) {
    const m = /^\s*(?:W\/)?"v(\d{1,15})"\s*$/.exec(tag);
    if (m) versions.push(Number(m[1]));
  }
  return versions;
}

const versionOf = (value: unknown): number | undefined => {
  const version = typeof value === 'object' && value !== null ? (value as { version?: unknown }).version : undefined;
  return Number.isInteger(version) ? (version as number) : undefined;
};

/**
 * The ETag of the one resource with a version an answer holds (`{event}`, `{project, lists}`, `{booking, slots}`),
 * or undefined when it holds none or several.
 */
export function etagOfAnswer(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const versions = Object.values(body).map(versionOf).filter((v): v is number => v !== undefined);
  return versions.length === 1 ? etagOf(versions[0]) : undefined;
}
