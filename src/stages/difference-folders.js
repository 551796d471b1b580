'use strict';
// compare's classes per top-level folder (below the compared prefix): objects, bytes and a
// few example keys of each class in each folder, so a report says where the differences
// are. Bounded: past MAX_FOLDERS folders the smallest (by objects that differ, then all)
// are folded into "(other)".

const EXAMPLES = 3;
const MAX_FOLDERS = 1000;

class DifferenceFolders {
  /** classes: compare's class names, in precedence; prefixes: {source, target} below which folders are named. */
  constructor(classes, { source = '', target = '', different, maxFolders = MAX_FOLDERS } = {}) {
    this.classes = classes;
    this.different = different || new Set(classes);
    this.prefixes = { source, target };
    this.maxFolders = maxFolders;
    this.folders = new Map(); // name -> {classes: {cls: [objects, bytes, examples]}, differ}
    this.other = null;
    this.folded = false;
  }

  _folder(name) {
    let f = this.folders.get(name);
    if (!f) {
      f = { classes: {}, differ: 0, objects: 0 };
      this.folders.set(name, f);
      if (this.folders.size > 2 * this.maxFolders) this._fold();
      f = this.folders.get(name) || this._otherFolder();
    }
    return f;
  }

  _otherFolder() {
    if (!this.other) this.other = { classes: {}, differ: 0, objects: 0 };
    return this.other;
  }

  _fold() {
    const rows = [...this.folders.entries()].sort((a, b) => b[1].differ - a[1].differ || b[1].objects - a[1].objects);
    this.folders = new Map(rows.slice(0, this.maxFolders));
    const other = this._otherFolder();
    for (const [, f] of rows.slice(this.maxFolders)) {
      for (const [cls, [n, bytes, ex]] of Object.entries(f.classes)) {
        const c = other.classes[cls] || (other.classes[cls] = [0, 0, []]);
        c[0] += n; c[1] += bytes;
        for (const k of ex) if (c[2].length < EXAMPLES) c[2].push(k);
      }
      other.differ += f.differ;
      other.objects += f.objects;
    }
    this.folded = true;
  }

  // The folder of a key below the side's prefix: "logs/" for "logs/2024/x", "(top)" for a key with no "/".
  folderOf(key, side) {
    const rel = key.startsWith(this.prefixes[side]) ? key.slice(this.prefixes[side].length) : key;
    const i = rel.indexOf('/');
    return i < 0 ? '(top)' : rel.slice(0, i + 1);
  }

  /** One pair of compare's: its class, key (source key, or the target key when only in the target), size. */
  add(cls, key, side, size) {
    const f = this._folder(this.folderOf(key, side));
    const c = f.classes[cls] || (f.classes[cls] = [0, 0, []]);
    c[0]++;
    c[1] += size || 0;
    f.objects++;
    if (this.different.has(cls)) {
      f.differ++;
      if (c[2].length < EXAMPLES) c[2].push(key);
    }
  }

  // Folders with something that differs first (most differences first), then the rest by objects.
  toJSON() {
    const row = (name, f) => ({
      name,
      objects: f.objects,
      differ: f.differ,
      classes: Object.fromEntries(this.classes.filter((c) => f.classes[c]).map((c) => [c, { objects: f.classes[c][0], bytes: f.classes[c][1], examples: f.classes[c][2] }])),
    });
    const rows = [...this.folders.entries()].sort((a, b) => b[1].differ - a[1].differ || b[1].objects - a[1].objects || (a[0] < b[0] ? -1 : 1)).map(([n, f]) => row(n, f));
    if (this.other) rows.push({ ...row('(other)', this.other), other: true });
    return rows;
  }
}

module.exports = { DifferenceFolders };
