import { BuildingRows, rowHash } from '../../services/readstore/building-rows';

describe('rows of collections being built', () => {
  it('gives every row whose id shares a hash, for the caller to tell apart', () => {
    const rows = new BuildingRows(100, () => 7);
    rows.track(1);
    rows.added(1, 'a', 10);
    rows.added(1, 'b', 11);
    rows.added(1, 'c', 12);
    expect(rows.candidates(1, 'a')).toEqual([10, 11, 12]);
    expect(rows.candidates(2, 'a')).toEqual([]);
  });

  it('finds nothing for an id not added, and ignores rows of tables it does not track', () => {
    const rows = new BuildingRows();
    rows.track(1);
    rows.added(1, 'a', 10);
    rows.added(2, 'a', 20);
    expect(rows.candidates(1, 'a')).toEqual([10]);
    expect(rows.candidates(1, 'b')).toEqual([]);
    expect(rows.tracks(2)).toBe(false);
  });

  it('stops tracking the table that would pass the budget, and counts a forgotten table\'s rows back', () => {
    const rows = new BuildingRows(3);
    rows.track(1);
    rows.track(2);
    rows.added(1, 'a', 1);
    rows.added(1, 'b', 2);
    rows.added(2, 'a', 1);
    rows.added(2, 'b', 2); // the fourth row: table 2 is no longer tracked
    expect([rows.tracks(1), rows.tracks(2)]).toEqual([true, false]);
    rows.added(1, 'c', 3); // table 2's rows were counted back: room for this one
    expect(rows.candidates(1, 'c')).toEqual([3]);
    rows.added(1, 'd', 4);
    expect(rows.tracks(1)).toBe(false);
  });

  it('forgets everything on clear, and starts a table again empty', () => {
    const rows = new BuildingRows(2);
    rows.track(1);
    rows.added(1, 'a', 1);
    rows.added(1, 'b', 2);
    rows.clear();
    expect(rows.tracks(1)).toBe(false);
    rows.track(1);
    rows.added(1, 'c', 3);
    rows.added(1, 'd', 4);
    expect(rows.candidates(1, 'a')).toEqual([]);
    expect(rows.candidates(1, 'd')).toEqual([4]);
  });

  it('hashes to small non-negative integers that differ for near ids', () => {
    const ids = ['0b3e1c2a-0000-4000-8000-000000000001', '0b3e1c2a-0000-4000-8000-000000000002', 'u:2030-01-07', ''];
    const hashes = ids.map(rowHash);
    for (const h of hashes) expect(Number.isInteger(h) && h >= 0 && h < 2 ** 31).toBe(true);
    expect(new Set(hashes).size).toBe(ids.length);
  });
});
