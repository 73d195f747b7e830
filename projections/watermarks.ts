/**
 * How far each projection's active storage has applied the log. In the projector's own process the runner
 * announces every step; elsewhere (separate api processes) positions are read from the persisted checkpoints.
 */
import type { ReadStore } from '../services/readstore/read-store.port';
import { CHECKPOINTS } from '../services/readstore/checkpoints';
import { registryDocs } from './registry';

export { CHECKPOINTS };

export const storageKey = (name: string, version: number, generation: number) => `${name}_v${version}_g${generation}`;
export const physical = (key: string, logical: string) => `p_${key}_${logical}`;

type Waiter = { name: string; position: number; resolve: () => void };

export class Watermarks {
  private readonly local = new Map<string, number>();
  private readonly activeKeys = new Map<string, { key: string; at: number }>();
  private waiters: Waiter[] = [];

  constructor(
    private readonly store: ReadStore,
    /** True where a runner in this process announces positions: no polling needed. */
    private readonly inProcess: boolean,
  ) {}

  announce(name: string, position: number): void {
    this.local.set(name, position);
    if (this.waiters.length === 0) return;
    this.waiters = this.waiters.filter((w) => {
      if (w.name !== name || w.position > position) return true;
      w.resolve();
      return false;
    });
  }

  setActive(name: string, key: string): void {
    this.activeKeys.set(name, { key, at: Number.POSITIVE_INFINITY });
  }

  /** The storage readers should use: the active one, or the one being built on a first start. */
  async activeKey(name: string): Promise<string | null> {
    const cached = this.activeKeys.get(name);
    if (cached && (this.inProcess || Date.now() - cached.at < 1000)) return cached.key;
    const reg = await registryDocs(this.store).get(name);
    const key = reg?.active ?? reg?.building ?? null;
    if (key) this.activeKeys.set(name, { key, at: this.inProcess ? Number.POSITIVE_INFINITY : Date.now() });
    return key;
  }

  async position(name: string): Promise<number> {
    if (this.inProcess) return this.local.get(name) ?? 0;
    const key = await this.activeKey(name);
    if (!key) return 0;
    const cp = await this.store.collection(CHECKPOINTS).get(key);
    return (cp?.position as number | undefined) ?? 0;
  }

  /** The least position the named projections have reached; null when none is followed yet (see waitFor). */
  async reached(names: readonly string[]): Promise<number | null> {
    let least: number | null = null;
    for (const name of names) {
      if (this.inProcess && !this.local.has(name)) continue;
      const position = await this.position(name);
      least = least === null ? position : Math.min(least, position);
    }
    return least;
  }

  /** Resolves true once every named projection reached `position`, false after the timeout. */
  async waitFor(names: readonly string[], position: number, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    for (const name of names) {
      // In the projector's process, a projection with no active storage yet (its first build) is not waited for.
      if (this.inProcess && !this.local.has(name)) continue;
      while ((await this.position(name)) < position) {
        const left = deadline - Date.now();
        if (left <= 0) return false;
        if (this.inProcess) await this.nextAnnouncement(name, position, left);
        else await new Promise((r) => setTimeout(r, Math.min(20, left)));
      }
    }
    return true;
  }

  private nextAnnouncement(name: string, position: number, timeoutMs: number): Promise<void> {
    return new Promise((resolve) => {
      // Checked again synchronously: an announcement between the caller's check and now must not be missed.
      if ((this.local.get(name) ?? 0) >= position) return resolve();
      const waiter: Waiter = { name, position, resolve: () => (clearTimeout(timer), resolve()) };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve();
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }
}
