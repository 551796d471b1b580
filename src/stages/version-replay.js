'use strict';
// cp --all-versions: every key's versions replayed onto its target key oldest first, so the
// target's history is the source's: each version a server-side copy (of that version id),
// each delete marker a DeleteObject (a delete marker on a versioned target). A key's next
// version starts only when the one before it has finished, keys run side by side through
// the copier's pools; a version that fails stops its key (the newer ones are reported as
// not copied), since a history with a hole is not the source's history.
//
// Journal: each version is one entry, named `key NUL index NUL versionId` (index oldest
// first, zero-padded, so names sort in replay order), whose source key is the key itself
// only for the newest: a run stopped inside a key resumes listing before that key, and
// skips the versions the journal says were copied.
const pLimit = require('p-limit');
const { compareKeys } = require('../keys/order');
const { Tally } = require('../transfer/copier');
const { classifyError } = require('../transfer/outcome');

const pad = (i) => String(i).padStart(9, '0');

function journalName(key, index, versionId) {
  return `${key}\u0000${pad(index)}\u0000${versionId}`;
}

class VersionReplay {
  /** o: {copier, dst, journal (RunJournal or null), dryrun, signal, onObject, concurrency} */
  constructor(o) {
    Object.assign(this, o);
    this.live = 0;
    this.markers = new Tally();
    this.deletes = pLimit(o.concurrency || 64);
    this.deleting = 0; // delete markers being replayed (the copier does not see them)
    this.wake = null;
  }

  // Whether the journal of an earlier run counts this version as finished.
  _done(name) {
    const j = this.journal;
    if (!j) return false;
    return j.isDone(name) || (j.upTo !== null && compareKeys(name, j.upTo) <= 0);
  }

  /**
   * One key's versions (items as listed, newest first) onto targetKey. prevKey: the key
   * listed before this one (where a resumed run lists from when this key is unfinished).
   * Resolves once its first version is queued (the copier's queue holds the lister back).
   */
  async addKey(versions, targetKey, prevKey) {
    const key = versions[0].Key;
    const n = versions.length;
    const steps = [];
    for (let i = 0; i < n; i++) {
      const item = versions[n - 1 - i]; // oldest first
      const name = journalName(key, i, item.VersionId);
      if (this._done(name)) continue;
      steps.push({ item, name, token: this.journal ? this.journal.track(name, i === n - 1 ? key : prevKey) : null });
    }
    if (!steps.length) return;
    if (this.dryrun) {
      for (const s of steps) {
        if (s.item.DeleteMarker) { this.markers.add(0); this._tell(s.item, targetKey, { status: 'planned', deleteMarker: true }); } else await this.copier.add(s.item, targetKey);
      }
      return;
    }
    this.live++;
    let first = true;
    let queued;
    const firstQueued = new Promise((r) => { queued = r; });
    const end = () => { this.live--; if (first) { first = false; queued(); } this._notify(); };
    const step = async (i) => {
      if (i === steps.length || this.copier.stopped) { end(); return; }
      if (this.error) { end(); return; }
      const s = steps[i];
      const finished = (outcome) => {
        if (s.token) this.journal.finished(s.token, outcome, s.item, targetKey);
        if (outcome.status === 'copied') { step(i + 1).catch(fail); return; }
        // The newer versions would leave a hole in the history: not copied, each named.
        for (const rest of steps.slice(i + 1)) {
          const o = { status: 'failed', reason: `not copied: an older version of this key (${s.item.VersionId}) was not` };
          this.copier.record(rest.item, targetKey, o);
          if (rest.token) this.journal.finished(rest.token, o, rest.item, targetKey);
        }
        end();
      };
      const fail = (err) => { this.error = this.error || err; end(); };
      if (s.item.DeleteMarker) {
        this.deletes(() => this._deleteMarker(s.item, targetKey)).then(finished, fail);
        if (first) { first = false; queued(); }
        return;
      }
      await this.copier.add(s.item, targetKey, finished);
      if (first) { first = false; queued(); }
    };
    step(0).catch((err) => { this.error = this.error || err; end(); });
    await firstQueued;
    if (this.error) throw this.error;
  }

  // A delete marker, replayed: a DeleteObject of the target key.
  async _deleteMarker(item, targetKey) {
    let outcome;
    this.deleting++;
    try {
      await this.dst.deleteObject(targetKey, this.signal);
      this.markers.add(0);
      outcome = { status: 'copied', bytes: 0, deleteMarker: true };
      this._tell(item, targetKey, outcome);
    } catch (err) {
      outcome = classifyError(err, { bucket: this.dst.bucket, key: targetKey });
      if (outcome.status === 'vanished') outcome = { status: 'copied', bytes: 0, deleteMarker: true };
      this.copier.record(item, targetKey, outcome);
    } finally {
      this.deleting--;
    }
    return outcome;
  }

  _tell(item, targetKey, outcome) {
    if (this.onObject) this.onObject({ key: item.Key, targetKey, size: 0, versionId: item.VersionId, ...outcome });
  }

  _notify() { if (this.wake) { const w = this.wake; this.wake = null; w(); } }

  // Waits until every key's replay has ended, or the copier has stopped and is idle (the
  // steps it will never start then have no outcome).
  async settle() {
    while (this.live > 0) {
      if (this.copier.stopped && this.copier.queued === 0 && this.deleting === 0) break;
      await new Promise((r) => {
        this.wake = r;
        const t = setTimeout(r, 50);
        if (t.unref) t.unref();
      });
    }
    if (this.error) throw this.error;
  }
}

module.exports = { VersionReplay, journalName };
