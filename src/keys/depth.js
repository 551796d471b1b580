'use strict';
// How deep a key or folder lies: its number of "/" (the one delimiter folders are made of).

/** Folder levels above a key ("a/b/c": 2), or of a folder name with its "/" ("a/b/": 2). */
function depthOf(key) {
  let n = 0;
  for (let i = key.indexOf('/'); i >= 0; i = key.indexOf('/', i + 1)) n++;
  return n;
}

module.exports = { depthOf };
