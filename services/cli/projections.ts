/**
 * The `projections` commands. They ask the running service (`/admin`, see admin-client.ts); `list` and `status`
 * also work with `--offline`, reading the registry and checkpoints straight from the stores, for when the service
 * is stopped. `rebuild --wait` follows the new storage until the projector switches to it.
 */
import type { Command } from 'commander';
import type { Config } from '../config';
import type { ProjectionsReport } from '../http/admin';
import { adminClient, type AdminClient } from './admin-client';
import { CliError, config, eventLog, readModels, showProgress } from './context';
import { positiveInteger } from './options';
import { renderTable, writeLine } from './output';
import { progressBar } from './progress';

type Projection = ProjectionsReport['projections'][number];

const POLL_MS = 500;

async function offlineReport(cfg: Config): Promise<ProjectionsReport> {
  const [{ PROJECTIONS }, { projectionsReport }, { Watermarks }] = await Promise.all([
    import('../composition'), import('../http/admin'), import('../../projections/watermarks'),
  ]);
  const events = await eventLog(cfg);
  try {
    const store = await readModels(cfg);
    try {
      const projectionNames = PROJECTIONS.map((p) => p.name);
      return await projectionsReport({ events, store, watermarks: new Watermarks(store, false), projectionNames });
    } finally {
      await store.close();
    }
  } finally {
    await events.close();
  }
}

function report(offline: boolean | undefined): Promise<ProjectionsReport> {
  const cfg = config();
  return offline ? offlineReport(cfg) : adminClient(cfg).call<ProjectionsReport>('GET', '/projections');
}

/** The projection version that built the serving storage (named `<name>_v<version>_g<generation>`). */
function version(p: Projection): number | null {
  const match = /_v(\d+)_g\d+$/.exec(p.registry?.active ?? p.registry?.building ?? '');
  return match ? Number(match[1]) : null;
}

const seconds = (s: number) => (s < 10 ? s.toFixed(1) : Math.round(s).toString());

function row(p: Projection) {
  return {
    name: p.name,
    version: version(p),
    active: p.registry?.active ?? null,
    building: p.building,
    checkpoint: p.position,
    lagPositions: p.lagPositions,
    lagSeconds: p.lagSeconds,
    deadLetters: p.deadLetters.count,
  };
}

function printList(r: ProjectionsReport): void {
  const headers = ['NAME', 'VERSION', 'ACTIVE', 'BUILDING', 'CHECKPOINT', 'LAG (positions)', 'LAG (s)', 'DEAD LETTERS'];
  const rows = r.projections.map(row).map((p) => [
    p.name, String(p.version ?? '-'), p.active ?? '-', p.building ? `${p.building.storage} @ ${p.building.position}` : '-',
    String(p.checkpoint), String(p.lagPositions), seconds(p.lagSeconds), String(p.deadLetters),
  ]);
  writeLine(renderTable(headers, rows, [false, true, false, false, true, true, true, true]));
  writeLine(`log head: ${r.head}`);
}

function printStatus(r: ProjectionsReport): void {
  writeLine(`log head: ${r.head}`);
  for (const p of r.projections) {
    const { version: v, active, building } = row(p);
    writeLine();
    writeLine(`${p.name} (version ${v ?? '-'})`);
    writeLine(`  active storage:   ${active ?? '-'}${p.registry?.rebuildRequested ? ' (rebuild requested)' : ''}`);
    writeLine(`  building:         ${building ? `${building.storage}, at position ${building.position} of ${r.head}` : '-'}`);
    writeLine(`  checkpoint:       ${p.position} (${p.lagPositions} positions and ${seconds(p.lagSeconds)} s behind the head)`);
    if (p.next) writeLine(`  next to apply:    position ${p.next.position}, ${p.next.type}`);
    writeLine(`  dead letters:     ${p.deadLetters.count}`);
    for (const d of p.deadLetters.latest.slice(0, 5)) {
      writeLine(`    position ${d.position} ${d.type} (event ${d.eventId}) at ${d.at}: ${String(d.error).split('\n')[0]}`);
    }
  }
}

function only(r: ProjectionsReport, name: string | undefined): ProjectionsReport {
  if (name === undefined) return r;
  const found = r.projections.filter((p) => p.name === name);
  if (found.length === 0) throw new CliError(`no projection named ${name} (known: ${r.projections.map((p) => p.name).join(', ')})`);
  return { ...r, projections: found };
}

/** Polls until the projection serves from a storage other than `previous` with no build left; returns it. */
async function followRebuild(
  client: AdminClient,
  name: string,
  previous: string | null,
  timeoutMs: number,
  progress: boolean,
): Promise<Projection> {
  const deadline = Date.now() + timeoutMs;
  const bar = progressBar(progress, `rebuild ${name}`, 0, 'positions');
  try {
    for (;;) {
      const r = only(await client.call<ProjectionsReport>('GET', '/projections'), name);
      const p = r.projections[0];
      const reg = p.registry;
      if (reg?.active && reg.active !== previous && !reg.building && !reg.rebuildRequested) {
        bar.update(r.head, r.head);
        return p;
      }
      if (p.building) bar.update(p.building.position, r.head);
      if (Date.now() > deadline) {
        throw new CliError(`${name} is still building after ${Math.round(timeoutMs / 1000)} s; follow it with \`projections status ${name}\``);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    bar.stop();
  }
}

export function projectionsCommands(program: Command): void {
  const projections = program.command('projections').description('read-model projections: versions, checkpoints, lag, dead letters, rebuilds');

  projections
    .command('list')
    .description('one line per projection: version, active and building storage, checkpoint, lag, dead letters')
    .option('--offline', 'read the stores directly instead of asking the service (when it is stopped)')
    .option('--json', 'print the rows as JSON')
    .action(async (o: { offline?: boolean; json?: boolean }) => {
      const r = await report(o.offline);
      if (o.json) writeLine(JSON.stringify({ head: r.head, projections: r.projections.map(row) }, null, 2));
      else printList(r);
    });

  projections
    .command('status')
    .description('the head of the log and, per projection, its storage, checkpoint, lag, next event and latest dead letters')
    .argument('[name]', 'only this projection')
    .option('--offline', 'read the stores directly instead of asking the service (when it is stopped)')
    .option('--json', 'print the full report as JSON')
    .action(async (name: string | undefined, o: { offline?: boolean; json?: boolean }) => {
      const r = only(await report(o.offline), name);
      if (o.json) writeLine(JSON.stringify(r, null, 2));
      else printStatus(r);
    });

  projections
    .command('rebuild')
    .description('rebuild a projection into new storage while the current one serves; the projector switches when it has caught up')
    .argument('<name>', 'the projection')
    .option('--wait', 'follow the build with a progress bar until the switch')
    .option('--timeout <seconds>', 'give up waiting after this long (exit 1; the build goes on)', positiveInteger, 3600)
    .option('--json', 'print the outcome as JSON')
    .action(async (name: string, o: { wait?: boolean; timeout: number; json?: boolean }, command: Command) => {
      const client = adminClient(config());
      const before = only(await client.call<ProjectionsReport>('GET', '/projections'), name).projections[0];
      const previous = before.registry?.active ?? null;
      await client.call('POST', `/projections/${encodeURIComponent(name)}/rebuild`);
      if (!o.wait) {
        if (o.json) writeLine(JSON.stringify({ name, rebuildRequested: true, serving: previous }));
        else {
          const serving = previous ?? 'its storage';
          writeLine(`rebuild of ${name} requested; ${serving} serves until the new storage catches up (follow with \`projections status ${name}\`, or --wait)`);
        }
        return;
      }
      const started = Date.now();
      const done = await followRebuild(client, name, previous, o.timeout * 1000, showProgress(command));
      const took = (Date.now() - started) / 1000;
      const active = done.registry?.active ?? null;
      if (o.json) writeLine(JSON.stringify({ name, previous, active, position: done.position, seconds: took }));
      else writeLine(`${name} rebuilt: now serving from ${active} (was ${previous ?? '-'}), at position ${done.position}, in ${seconds(took)} s`);
    });
}
