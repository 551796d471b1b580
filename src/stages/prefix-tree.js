'use strict';
// The folders of a listing as a tree, down to a depth: objects, bytes, oldest and newest
// per folder, in memory bounded by a node count. Past twice the cap the smallest folders
// (by bytes) are dropped; what they held shows in their parent's "other" (the parent's
// totals minus its files and its remaining folders), so every level still adds up. A
// folder made again after its parent lost some has counts from then on only, and says
// so (approximate: true).

class Node {
  constructor(name, approximate) {
    this.name = name; // the folder's own segment, with its '/'
    this.objects = 0;
    this.bytes = 0;
    this.oldest = Infinity;
    this.newest = -Infinity;
    this.files = 0; // objects directly in this folder (or, at the depth limit, below it)
    this.filesBytes = 0;
    this.children = null; // name -> Node
    this.folded = false; // some children were dropped
    this.approximate = approximate;
  }
}

class PrefixTree {
  /** prefix: the listing's prefix, the tree's root; depth: folder levels below it; maxNodes: folders kept. */
  constructor({ prefix = '', depth = 3, maxNodes = 5000 } = {}) {
    this.prefix = prefix;
    this.depth = depth;
    this.maxNodes = maxNodes;
    this.root = new Node(prefix, false);
    this.nodes = 0;
    this.everFolded = false;
    // The folder path of the last key, reused while keys share it (pages come in key order).
    this.path = [this.root];
    this.pathKey = null;
    this.pathDepth = 0;
  }

  add(key, size, t) {
    const path = this.path;
    let d = 0, i = this.prefix.length;
    const hit = this.pathKey !== null && key.startsWith(this.pathKey);
    if (hit) { d = this.pathDepth; i = this.pathKey.length; }
    const from = d;
    let node = path[d];
    while (d < this.depth) {
      const j = key.indexOf('/', i);
      if (j < 0) break;
      const name = key.slice(i, j + 1);
      let child = node.children && node.children.get(name);
      if (!child) child = this._child(node, name);
      path[++d] = child;
      node = child;
      i = j + 1;
    }
    if (!hit || d !== from) {
      this.pathKey = key.slice(0, i);
      this.pathDepth = d;
    }
    for (let k = 0; k <= d; k++) {
      const n = path[k];
      n.objects++;
      n.bytes += size;
      if (t === t) { if (t < n.oldest) n.oldest = t; if (t > n.newest) n.newest = t; }
    }
    node.files++;
    node.filesBytes += size;
    if (this.nodes > 2 * this.maxNodes) this._prune(this.maxNodes);
  }

  _child(parent, name) {
    const child = new Node(name, parent.folded || parent.approximate);
    if (!parent.children) parent.children = new Map();
    parent.children.set(name, child);
    this.nodes++;
    return child;
  }

  // Keeps the `keep` largest folders by bytes. A parent holds at least what any child
  // holds, and ties go to the shallower, so no kept folder loses its parent.
  _prune(keep) {
    const all = [];
    const walk = (n, depth) => {
      if (!n.children) return;
      for (const c of n.children.values()) { all.push([c, n, depth]); walk(c, depth + 1); }
    };
    walk(this.root, 1);
    if (all.length <= keep) return;
    all.sort((a, b) => b[0].bytes - a[0].bytes || b[0].objects - a[0].objects || a[2] - b[2]);
    for (let k = keep; k < all.length; k++) {
      const [c, parent] = all[k];
      if (parent.children.get(c.name) === c) parent.children.delete(c.name);
      parent.folded = true;
    }
    this.nodes = keep;
    this.everFolded = true;
    this.path = [this.root];
    this.pathKey = null;
    this.pathDepth = 0;
  }

  toJSON() {
    this._prune(this.maxNodes);
    const iso = (t) => (Number.isFinite(t) ? new Date(t).toISOString() : null);
    const out = (n) => {
      const o = { name: n.name, objects: n.objects, bytes: n.bytes, oldest: iso(n.oldest), newest: iso(n.newest) };
      if (n.approximate) o.approximate = true;
      if (n.children && n.children.size) {
        const kids = [...n.children.values()].sort((a, b) => b.bytes - a.bytes || b.objects - a.objects || (a.name < b.name ? -1 : 1));
        o.files = { objects: n.files, bytes: n.filesBytes };
        let objects = n.objects - n.files, bytes = n.bytes - n.filesBytes;
        for (const k of kids) { objects -= k.objects; bytes -= k.bytes; }
        if (objects > 0) o.other = { objects, bytes };
        o.children = kids.map(out);
      } else if (n.folded) {
        o.files = { objects: n.files, bytes: n.filesBytes };
        if (n.objects - n.files > 0) o.other = { objects: n.objects - n.files, bytes: n.bytes - n.filesBytes };
      }
      return o;
    };
    return { depth: this.depth, maxNodes: this.maxNodes, nodes: this.nodes, approximate: this.everFolded, root: out(this.root) };
  }
}

module.exports = { PrefixTree };
