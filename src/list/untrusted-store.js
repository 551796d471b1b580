'use strict';
// A store whose listings cannot be taken as they come: pages out of S3's UTF-8 key order,
// keys before their StartAfter, or two requests that disagree about the same keys. The
// listers throw it; the guarded lister (guarded-lister.js) then lists sequentially, or
// stops, if output has begun. Its message is the evidence, for the user.
const { FatalError } = require('../errors');

class UntrustedStore extends FatalError {}

// One key as an error message shows it: exact (JSON), and not too long.
function showKey(key) {
  return key === null || key === undefined ? 'nothing' : JSON.stringify(key.length > 120 ? `${key.slice(0, 120)}…` : key);
}

module.exports = { UntrustedStore, showKey };
