/**
 * Follows the log and applies each projection into its storage, checkpointing after the documents were written.
 * A projection whose code version has no storage yet is built from position 0 into new storage while the old one
 * keeps serving; once it reaches the head of the log it becomes active and the old storage is dropped.
 * No single event can stop a projection: one whose apply keeps failing is recorded as a dead letter and passed.
 */
import type { Logger } from 'pino';
import type { EventStore, RecordedEvent } from '../services/eventstore/event-store.port';
import { followLog, type LogFollower } from '../services/eventstore/follow-log';
import { catchUpTogether, type Page } from './catch-up';
import type { Grouped, ReadStore } from '../services/readstore/read-store.port';
import { StoreUnavailable } from '../services/errors';
import { coalescing } from './coalescing-docs';
import { DeadLetters } from './dead-letters';
import type { Projection, ProjectionDocs } from './projection';
import { changeRegistry, emptyRegistryDoc, registryDocs } from './registry';
import { CHECKPOINTS, physical, storageKey, Watermarks } from './watermarks';
import { Backoff } from '../services/backoff';
import { loadCheckpoint, saveCheckpoint } from '../services/readstore/checkpoints';

const CHECKPOINT_EVERY_MS = 20;
/** Pauses before a checkpoint that could not be saved is tried again. */
const CHECKPOINT_RETRY_FIRST_MS = 500;
const CHECKPOINT_RETRY_LONGEST_MS = 5_000;
const REGISTRY_POLL_MS = 1000;
/** Attempts at applying one event before it is dead-lettered (a failing store gets a moment to recover). */
const APPLY_ATTEMPTS = 3;
const RETRY_PAUSE_MS = 50;

class Follower {
  position = 0;
  private sub: LogFollower | null = null;
  /** The catch-up page being applied, if any: stopping waits for it, not for the whole catch-up. */
  private applying: Promise<void> = Promise.resolve();
  private stopping = false;
  private flushTimer: NodeJS.Timeout | null = null;
  private saved = 0;
  private flushing: Promise<void> = Promise.resolve();
  private readonly checkpointBackoff = new Backoff(CHECKPOINT_RETRY_FIRST_MS, CHECKPOINT_RETRY_LONGEST_MS);

  constructor(
    readonly def: Projection,
    readonly key: string,
    private readonly store: ReadStore,
    private readonly deadLetters: DeadLetters,
    private readonly onApplied: (f: Follower) => Promise<void>,
    private readonly log: Logger,
  ) {
    this.handles = new Set(def.handles);
    this.coalesced = new Set(Object.entries(def.collections).filter(([, c]) => c.coalesce).map(([logical]) => logical));
    this.docs = this.docsIn(store);
  }

  readonly docs: ProjectionDocs;

  private docsIn(store: Grouped): ProjectionDocs {
    return (logical) => store.collection(physical(this.key, logical));
  }

  readonly handles: ReadonlySet<string>;
  private readonly coalesced: ReadonlySet<string>;

  /**
   * Declares the storage's indexes and reads its checkpoint; `follow` then runs it. Storage being built defers its
   * indexes to the switch (`declareIndexes`): sorted once, they cost less than kept up at every write.
   */
  async prepare(deferIndexes: boolean): Promise<void> {
    await this.declareIndexes(deferIndexes);
    this.position = this.saved = await loadCheckpoint(this.store, this.key);
  }

  /**
   * One index at a time: each build holds the read store once, not the whole set at once. The id key comes first:
   * deferred on fresh storage, the embedded store appends the build's writes and sorts them by id once.
   */
  async declareIndexes(deferred = false): Promise<void> {
    for (const [logical, { indexes }] of Object.entries(this.def.collections)) {
      for (const fields of [['_id'], ...indexes]) await this.docs(logical).ensureIndex(fields, { deferred });
    }
  }

  /** Follows the log event by event once `caughtUp` (the catch-up this follower is part of) has ended. */
  follow(events: EventStore, caughtUp: Promise<void>): void {
    const apply = async (e: RecordedEvent) => {
      if (this.handles.has(e.type)) await this.applyOrDeadLetter(e);
      this.position = e.position;
      this.scheduleCheckpoint();
      await this.onApplied(this);
    };
    void caughtUp.then(() => {
      if (!this.stopped) this.sub = followLog(events, () => this.position, apply, this.log, this.key);
    });
  }

  get stopped(): boolean {
    return this.stopping;
  }

  /**
   * Applies the page's events this follower handles and has not applied yet, then writes the checkpoint at the page's
   * end: a batch of the read store runs it, so documents and checkpoint are committed together.
   */
  applyPage(page: Page, grouped: Grouped): Promise<void> {
    const { docs, flush } = coalescing(this.docsIn(grouped), this.coalesced);
    this.applying = (async () => {
      for (const e of page.events) if (e.position > this.position && this.handles.has(e.type)) await this.applyOrDeadLetter(e, docs);
      await flush();
      if (!this.stopping) await saveCheckpoint(grouped, this.key, page.reached);
    })();
    return this.applying;
  }

  /** Once the page is committed: the follower is at its end. */
  async pageApplied(reached: number): Promise<void> {
    if (this.stopping || reached <= this.position) return;
    this.position = this.saved = reached;
    await this.onApplied(this);
  }

  /**
   * Applies one event, or records it as a dead letter once it failed every attempt, so the projection moves on. If
   * even the record cannot be written (the store is down), the error ends the subscription, which resumes from this
   * same event: the checkpoint never passes an event that was neither applied nor recorded. A store that cannot be
   * reached says nothing against the event: that error ends the subscription at once, and the event is applied once
   * the store answers again (dead-lettered, it would be missing from the read model for good).
   */
  private async applyOrDeadLetter(e: RecordedEvent, docs = this.docs): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.def.apply(e, docs);
      } catch (err) {
        if (err instanceof StoreUnavailable) throw err;
        if (attempt < APPLY_ATTEMPTS) {
          await new Promise((r) => setTimeout(r, RETRY_PAUSE_MS * attempt));
          continue;
        }
        await this.deadLetters.record(this.def.name, this.key, e, err);
        this.log.error({ err, projection: this.key, position: e.position, eventId: e.id, type: e.type }, 'event dead-lettered; projection moves on');
        return;
      }
    }
  }

  /**
   * Saves the checkpoint soon. One that could not be saved is tried again after a growing pause, with or without a
   * new event: other processes read it (their /readyz, a write waiting to be visible) and a restart starts from it.
   */
  private scheduleCheckpoint(after = CHECKPOINT_EVERY_MS): void {
    if (this.flushTimer || this.stopping) return;
    this.flushTimer = setTimeout(() => {
      this.flush().then(
        () => this.checkpointBackoff.reset(),
        (err) => {
          this.flushing = Promise.resolve();
          const retryInMs = this.checkpointBackoff.pause();
          this.log.warn({ err, projection: this.key, retryInMs }, 'checkpoint not saved; will retry');
          this.scheduleCheckpoint(retryInMs);
        },
      );
    }, after);
  }

  /** Saves the checkpoint; flushes never overlap, so a checkpoint write is never overtaken by an older one. */
  flush(): Promise<void> {
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = null;
    this.flushing = this.flushing.then(async () => {
      if (this.position === this.saved) return;
      const position = this.position;
      await saveCheckpoint(this.store, this.key, position);
      this.saved = position;
    });
    return this.flushing;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    await this.applying.catch(() => undefined);
    await this.sub?.stop();
    await this.flush();
  }
}

export interface ProjectionStatus {
  name: string;
  version: number;
  active: string | null;
  activePosition: number | null;
  building: string | null;
  buildingPosition: number | null;
  /** Events the active storage could not apply and passed (see `projections status` for the latest). */
  deadLetters: number;
}

export class ProjectionRunner {
  private readonly active = new Map<string, Follower>();
  private readonly building = new Map<string, Follower>();
  /** Catch-ups under way: stop() waits for them to leave the stores. */
  private readonly catchUps = new Set<Promise<void>>();
  private poll: NodeJS.Timeout | null = null;
  private readonly deadLetters: DeadLetters;
  /** The registry check under way: stop() waits for it, so it never meets a closed store. */
  private checking: Promise<void> | null = null;
  private readonly stopping = new AbortController();

  constructor(
    private readonly events: EventStore,
    private readonly store: ReadStore,
    private readonly defs: readonly Projection[],
    private readonly watermarks: Watermarks,
    private readonly log: Logger,
  ) {
    this.deadLetters = new DeadLetters(store);
  }

  private get registry() {
    return registryDocs(this.store);
  }

  async start(): Promise<void> {
    await this.deadLetters.ensureIndexes();
    const started: Follower[] = [];
    for (const def of this.defs) {
      const reg = (await this.registry.get(def.name)) ?? emptyRegistryDoc(def.name);
      const usable = async (key: string | null) => key !== null && key.startsWith(`${def.name}_v${def.version}_`) && !(await this.aheadOfLog(key));
      const active = (await usable(reg.active)) ? reg.active : null;
      if (active) started.push(await this.follow(def, active, 'active'));
      if (await usable(reg.building)) started.push(await this.resumeBuild(def, reg.building!));
      else {
        if (reg.building) await this.dropStorage(def, reg.building);
        if (!active) started.push(await this.build(def));
      }
    }
    this.run(started, this.stopping.signal);
    this.poll = setInterval(() => {
      this.checking ??= this.checkRebuildRequests()
        .catch((err: unknown) => this.log.warn({ err }, 'projection registry check failed; will retry'))
        .finally(() => (this.checking = null));
    }, REGISTRY_POLL_MS);
  }

  async stop(): Promise<void> {
    if (this.poll) clearInterval(this.poll);
    await this.checking;
    const stopped = [...this.active.values(), ...this.building.values()].map((f) => f.stop()); // each marked stopped at once
    this.stopping.abort();
    await Promise.all(stopped);
    await Promise.all(this.catchUps);
  }

  /** Rebuilds a projection into fresh storage beside the serving one (operators: after fixing a projection bug). */
  async rebuild(name: string): Promise<void> {
    const { after } = await changeRegistry(this.store, name, (reg) => reg && { ...reg, rebuildRequested: true });
    if (!after) throw new Error(`unknown projection ${name}`);
    await this.checkRebuildRequests();
  }

  async status(): Promise<ProjectionStatus[]> {
    return Promise.all(
      this.defs.map(async (def) => {
        const reg = await this.registry.get(def.name);
        const a = this.active.get(def.name);
        const b = this.building.get(def.name);
        return {
          name: def.name,
          version: def.version,
          active: reg?.active ?? null,
          activePosition: a?.position ?? null,
          building: reg?.building ?? null,
          buildingPosition: b?.position ?? null,
          deadLetters: reg?.active ? await this.deadLetters.count(reg.active) : 0,
        };
      }),
    );
  }

  /** A checkpoint past the head means this storage was built from another log (say, a fresh event store). */
  private async aheadOfLog(key: string): Promise<boolean> {
    const cp = (await this.store.collection(CHECKPOINTS).get(key))?.position as number | undefined;
    const ahead = (cp ?? 0) > (await this.events.headPosition());
    if (ahead) this.log.warn({ projection: key, checkpoint: cp }, 'read model is ahead of the event log; rebuilding');
    return ahead;
  }

  private async checkRebuildRequests(): Promise<void> {
    for (const def of this.defs) {
      if (this.building.has(def.name)) continue;
      const reg = await this.registry.get(def.name);
      if (reg?.rebuildRequested) this.run([await this.build(def)]);
    }
  }

  /** Starts a build into the next generation's storage, which the registry names as the one being built. */
  private async build(def: Projection): Promise<Follower> {
    const target = await this.events.headPosition();
    const { after } = await changeRegistry(this.store, def.name, (current) => {
      const reg = current ?? emptyRegistryDoc(def.name);
      const generation = reg.generation + 1;
      return { ...reg, building: storageKey(def.name, def.version, generation), generation, rebuildRequested: false };
    });
    const key = after!.building!;
    this.log.info({ projection: key, target }, 'building projection');
    const follower = await this.follow(def, key, 'building', target);
    if (target === 0) await this.promote(follower);
    return follower;
  }

  /** A build stopped or killed before its switch carries on from its own checkpoint, into the same storage. */
  private async resumeBuild(def: Projection, key: string): Promise<Follower> {
    const target = await this.events.headPosition();
    this.log.info({ projection: key, target }, 'resuming projection build');
    const follower = await this.follow(def, key, 'building', target);
    if (follower.position >= target) await this.promote(follower);
    return follower;
  }

  private async follow(def: Projection, key: string, role: 'active' | 'building', target = 0): Promise<Follower> {
    const follower = new Follower(def, key, this.store, this.deadLetters, async (f) => {
      if (this.active.get(def.name) === f) this.watermarks.announce(def.name, f.position);
      else if (this.building.get(def.name) === f && f.position >= target) await this.promote(f);
    }, this.log);
    (role === 'active' ? this.active : this.building).set(def.name, follower);
    if (role === 'active') this.watermarks.setActive(def.name, key);
    await follower.prepare(role === 'building');
    if (role === 'active') this.watermarks.announce(def.name, follower.position);
    return follower;
  }

  /**
   * Followers started together catch up together, then each follows the log on its own; with `live` (those started
   * with the runner) they go on together until the runner stops, and alone only if that fails.
   */
  private run(followers: Follower[], live?: AbortSignal): void {
    const caughtUp = catchUpTogether(this.events, this.store, followers, live)
      .catch((err: unknown) => this.log.warn({ err, projections: followers.map((f) => f.key) }, 'catch-up stopped; following event by event'))
      .finally(() => this.catchUps.delete(caughtUp));
    this.catchUps.add(caughtUp);
    for (const f of followers) f.follow(this.events, caughtUp);
  }

  private async promote(f: Follower): Promise<void> {
    const name = f.def.name;
    if (this.building.get(name) !== f) return;
    this.building.delete(name);
    await f.flush();
    await f.declareIndexes();
    const old = this.active.get(name);
    const { before } = await changeRegistry(this.store, name, (reg) => ({ ...(reg ?? emptyRegistryDoc(name)), active: f.key, building: null }));
    this.active.set(name, f);
    this.watermarks.setActive(name, f.key);
    this.watermarks.announce(name, f.position);
    this.log.info({ projection: f.key, position: f.position }, 'projection active');
    await old?.stop();
    if (before?.active && before.active !== f.key) await this.dropStorage(f.def, before.active);
  }

  /** Storage no follower of this process runs (an earlier version's, or an abandoned build's). */
  private async dropStorage(def: Projection, key: string): Promise<void> {
    for (const logical of Object.keys(def.collections)) await this.store.collection(physical(key, logical)).drop();
    await this.store.collection(CHECKPOINTS).delete(key);
    await this.deadLetters.drop(key);
  }
}
