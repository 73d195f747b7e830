/**
 * Progress bars for long jobs, always on stderr so stdout carries only results. Off unless the caller says so
 * (see `showProgress`); when forced onto a stream that is not a terminal, a line is printed every second instead.
 */
import { Presets, SingleBar } from 'cli-progress';

export interface Progress {
  update(value: number, total?: number): void;
  stop(): void;
}

const silent: Progress = { update: () => undefined, stop: () => undefined };

/** A bar over `total` units (counted as `value/total unit`), or a plain percentage when `unit` is absent. */
export function progressBar(enabled: boolean, label: string, total: number, unit?: string): Progress {
  if (!enabled) return silent;
  const counts = unit ? ` | {value}/{total} ${unit}` : '';
  const bar = new SingleBar(
    {
      stream: process.stderr,
      format: `${label} [{bar}] {percentage}%${counts} | {duration_formatted} | eta {eta_formatted}`,
      noTTYOutput: true,
      notTTYSchedule: 1000,
      hideCursor: true,
      etaBuffer: 50,
    },
    Presets.shades_classic,
  );
  bar.start(Math.max(total, 0), 0);
  return {
    update(value, newTotal) {
      if (newTotal !== undefined) bar.setTotal(newTotal);
      bar.update(value);
    },
    stop() {
      bar.stop();
    },
  };
}
