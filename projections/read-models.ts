import type { Doc, ReadStore } from '../services/readstore/read-store.port';
import type { ProjectionDocs } from './projection';
import { physical, type Watermarks } from './watermarks';

/** Readers reach a projection's collections through here, so a blue/green switch is invisible to them. */
export class ReadModels {
  constructor(
    private readonly store: ReadStore,
    private readonly watermarks: Watermarks,
  ) {}

  async docs(name: string): Promise<ProjectionDocs> {
    const key = await this.watermarks.activeKey(name);
    if (!key) throw new Error(`projection ${name} has no storage yet`);
    return <T extends Doc = Doc>(logical: string) => this.store.collection<T>(physical(key, logical));
  }
}

/** Drops the storage-only fields (`_id`, `_pos`, `_…`) from a projected document. */
export function publicView<T>(doc: Doc): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) if (!k.startsWith('_')) out[k] = v;
  return out as T;
}
