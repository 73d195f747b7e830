/** Strong ETags for events derive from their version; If-Match accepts one, a list, or `*`. */
export const etagOf = (version: number) => `"v${version}"`;

/** The version the caller expects, undefined when there is no If-Match (or `*`), null when it is unparseable. */
export function expectedVersion(ifMatch: string | undefined): number | undefined | null {
  if (ifMatch === undefined || ifMatch.trim() === '*') return undefined;
  const m = /^\s*(?:W\/)?"v(\d+)"\s*$/.exec(ifMatch);
  return m ? Number(m[1]) : null;
}
