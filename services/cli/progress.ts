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

export function progressBar(enabled: boolean, label: string, total: number, unit: string): Progress {
  if (!enabled) return silent;
  const bar = new SingleBar(
    {
      stream: process.stderr,
      format: `${label} [{bar}] {percentage}% | {value}/{total} ${unit} | {duration_formatted} | eta {eta_formatted}`,
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
