import { isoOf } from '../../services/time/iso';
import { prng } from '../support/prng';

describe('isoOf', () => {
  it('writes what toISOString writes, for instants across the years it covers and beyond them', () => {
    const random = prng(7);
    const samples = [0, -1, 1, 86_399_999, 86_400_000, -62_167_219_200_000, -62_167_219_200_001, 253_402_300_799_999, 253_402_300_800_000, 8.64e15, -8.64e15];
    for (let i = 0; i < 20_000; i++) samples.push(Math.floor((random() - 0.5) * 2 * 1e13));
    for (let i = 0; i < 2_000; i++) samples.push(1_900_000_000_000 + Math.floor(random() * 3 * 86_400_000)); // consecutive days
    for (const ms of samples) expect([ms, isoOf(ms)]).toEqual([ms, new Date(ms).toISOString()]);
  });

  it('throws as toISOString does for an instant outside the range of dates', () => {
    expect(() => isoOf(Number.NaN)).toThrow(RangeError);
    expect(() => isoOf(8.64e15 + 1)).toThrow(RangeError);
  });
});
