'use strict';
// What versioning costs a bucket: current and noncurrent versions and their bytes, delete
// markers, keys whose latest version is a delete marker, and noncurrent bytes by how long
// they have been noncurrent (since a newer version or delete marker replaced them): what a
// lifecycle rule expiring noncurrent versions after N days would delete.
const DAY = 86400000;
// Age bands in days: [min, max).
const AGE_BANDS = [[0, 1], [1, 7], [7, 30], [30, 90], [90, 365], [365, null]];
const OLDER_THAN = [1, 7, 30, 90, 365];

class VersionSummary {
  constructor({ now = Date.now() } = {}) {
    this.now = now;
    this.keys = 0;
    this.current = [0, 0];
    this.noncurrent = [0, 0];
    this.deleteMarkers = 0;
    this.latestDeleteMarkers = 0;
    this.bands = AGE_BANDS.map(() => [0, 0]);
    this.unknownAge = [0, 0];
  }

  /** A version item (version-chunk.js). */
  add(v) {
    if (v.IsLatest) this.keys++;
    if (v.DeleteMarker) {
      this.deleteMarkers++;
      if (v.IsLatest) this.latestDeleteMarkers++;
      return;
    }
    const size = v.Size || 0;
    if (v.IsLatest) { this.current[0]++; this.current[1] += size; return; }
    this.noncurrent[0]++;
    this.noncurrent[1] += size;
    const since = v.NoncurrentSince ? +v.NoncurrentSince : NaN;
    if (Number.isNaN(since)) { this.unknownAge[0]++; this.unknownAge[1] += size; return; }
    const days = Math.max(0, (this.now - since) / DAY);
    const b = AGE_BANDS.findIndex(([lo, hi]) => days >= lo && (hi === null || days < hi));
    this.bands[b][0]++;
    this.bands[b][1] += size;
  }

  toJSON() {
    const pair = ([objects, bytes]) => ({ objects, bytes });
    const byAge = AGE_BANDS.map(([minDays, maxDays], i) => ({ minDays, maxDays, ...pair(this.bands[i]) }));
    return {
      keys: this.keys,
      current: pair(this.current),
      noncurrent: pair(this.noncurrent),
      deleteMarkers: this.deleteMarkers,
      keysDeleted: this.latestDeleteMarkers,
      noncurrentByAge: byAge,
      // Cumulative: noncurrent for at least N days (a NoncurrentDays=N rule would expire them).
      noncurrentOlderThan: OLDER_THAN.map((days) => {
        let objects = 0, bytes = 0;
        AGE_BANDS.forEach(([lo], i) => { if (lo >= days) { objects += this.bands[i][0]; bytes += this.bands[i][1]; } });
        return { days, objects, bytes };
      }),
      noncurrentAgeUnknown: pair(this.unknownAge),
      asOf: new Date(this.now).toISOString(),
    };
  }
}

module.exports = { VersionSummary, AGE_BANDS };
