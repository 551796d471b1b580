'use strict';
// Every option of the library and the CLI: its one name (the CLI's flag in camelCase), its
// default, and the help the CLI shows. The library functions check the names they are given
// against this table, so a misspelled option is an error, not silently ignored.
const os = require('os');
const { UsageError } = require('./errors');

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

function positiveInt(value, name, { allowZero = false } = {}) {
  if (value === undefined || value === null) return undefined;
  const n = typeof value === 'number' ? value : Number(String(value).trim());
  if (!Number.isInteger(n) || n < (allowZero ? 0 : 1) || String(value).trim() === '') {
    throw new UsageError(`${name} must be a ${allowZero ? 'non-negative' : 'positive'} whole number, not ${JSON.stringify(String(value))}`);
  }
  return n;
}

// Parses sizes such as "5MiB", "64MB", "1G", "1048576": bytes.
function parseSize(value, name) {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) throw new UsageError(`${name} must be a size such as 64MiB, not ${value}`);
    return Math.floor(value);
  }
  const m = /^\s*(\d+(?:\.\d+)?)\s*([kmgtp]?)(i?b?)\s*$/i.exec(String(value));
  if (!m) throw new UsageError(`${name} must be a size such as 64MiB, not ${JSON.stringify(String(value))}`);
  const unit = { '': 1, k: 1024, m: MiB, g: GiB, t: 1024 * GiB, p: 1024 * 1024 * GiB }[m[2].toLowerCase()];
  return Math.floor(Number(m[1]) * unit);
}

// "7d", "12h", "30m", "90s", "2w", or a number of seconds: milliseconds.
function parseDuration(value, name) {
  if (value === undefined || value === null) return undefined;
  const m = /^\s*(\d+(?:\.\d+)?)\s*(s|m|h|d|w)?\s*$/i.exec(String(value));
  if (!m) throw new UsageError(`${name} must be a duration such as 7d, 12h, 30m or 90s, not ${JSON.stringify(String(value))}`);
  const unit = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 }[(m[2] || 's').toLowerCase()];
  return Number(m[1]) * unit * 1000;
}

const env = process.env;

// One thread per core beyond the main thread's, 1 to 4.
function defaultRequestThreads() {
  const cores = typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
  return Math.min(4, Math.max(1, cores - 1));
}

// name: { default, help, type, min, max }. Options without a default are left out when not
// given. Defaults from the environment are read once, when the module loads. type (int, size:
// bytes, or duration: ms) and the range [min, max] are checked once, by parseOptions, where a
// library function is called: the code below reads the typed value.
const OPTIONS = {
  // Where: the source and target, and the range of keys.
  source: {}, target: {}, bucket: {}, toBucket: {}, prefix: {}, startAfter: {}, stopAt: {},
  filter: {}, pattern: {}, pathFilters: {},
  // Connection.
  endpointUrl: {}, region: {}, profile: {}, forcePathStyle: {}, requestPayer: {}, credentials: {}, noSignRequest: {},
  toEndpointUrl: {}, toRegion: {}, toProfile: {}, toCredentials: {},
  // Listing.
  listConcurrency: { default: 100, type: 'int', min: 1, help: 'list requests in flight at once' },
  maxListRequests: { type: 'int', min: 1 }, sequential: {}, unordered: {}, splitHints: {}, folders: {}, hedge: {},
  // ls of one level of a folder (aws s3 ls without --recursive): "/".
  delimiter: {},
  // Lean requests (see docs/internals.md, "Fast request paths"): S3BLITZ_FAST_PATHS=0 sends every
  // request through the SDK, S3BLITZ_REQUEST_THREAD=0 keeps lean requests on the main thread.
  fastPaths: { default: env.S3BLITZ_FAST_PATHS !== '0' },
  requestThread: { default: env.S3BLITZ_REQUEST_THREAD !== '0' },
  // More than one where cores are to spare: pages are parsed where they arrive, so listing
  // scales past one core's parsing (the main thread still merges and checks every page).
  requestThreads: { default: defaultRequestThreads(), type: 'int', min: 1, max: 16, help: 'threads that send lean requests and parse list pages (default: one per core beyond the first, 1 to 4)' },
  // Pages held back to give keys in order (cp lists with a small window: copies are slower).
  reorderWindow: {}, maxQueuedPages: {},
  // summarize, each, map.
  summarizeFolders: {},
  // The folder tree's depth; --summarize-folders' flat table keeps its own default of 1, so
  // parseOptions leaves depth unset when not given (unsetStays): summarize tells them apart.
  depth: { default: 3, type: 'int', min: 1, unsetStays: true, help: 'folder depth of the report\'s folder tree (of --summarize-folders: default 1)' },
  top: { default: 20, type: 'int', min: 1, help: 'rows per group table (the rest is "other")' },
  largest: { default: 20, type: 'int', min: 0, help: 'how many of the largest and of the oldest objects the report names' },
  prices: {}, // a price table, or a JSON file of one (stages/storage-cost.js); default: built in
  incompleteUploads: { default: true, help: 'count incomplete multipart uploads (ListMultipartUploads)' },
  map: {}, mapList: {}, reduce: {}, finally: {}, default: {}, onValue: {},
  // Key mapping.
  toPrefix: {}, addPrefix: {}, toKey: {},
  // Writes.
  acl: {}, storageClass: {}, cacheControl: {}, contentType: {}, contentDisposition: {}, contentEncoding: {},
  contentLanguage: {}, expires: {}, metadata: {}, metadataDirective: {}, tagging: {}, sse: {}, sseKmsKeyId: {},
  // Never replace a target object: every PutObject, CopyObject and CompleteMultipartUpload
  // carries If-None-Match: * (on request types the server is found to honour it on).
  noOverwrite: {},
  // The checksum every upload sends and has confirmed (transfer/write-checksum.js); none for
  // servers that reject x-amz-checksum-* headers.
  checksumAlgorithm: { default: 'CRC64NVME', help: 'checksum every upload sends and checks: CRC64NVME, CRC32C, CRC32, SHA256, SHA1 or none; when named, also the one server-side copies (CopyObject) are stored with' },
  // Copies.
  copyConcurrency: { default: 500, type: 'int', min: 1, help: 'small objects copied at once' },
  largeCopyConcurrency: { default: 75, type: 'int', min: 1, help: 'large objects copied at once' },
  partConcurrency: { default: 8, type: 'int', min: 1, help: 'parts of one large object copied at once' },
  // Objects above this go part by part (measured: see docs/commands.md, "Copy policy").
  largeCopyThreshold: { default: '64MiB', type: 'size', min: 0, help: 'multipart sources at or above this keep their part layout in a copy; uploads and downloads above it go in parts' },
  // A multipart source below the threshold takes one CopyObject and gets an MD5 ETag, unless
  // asked to keep its layout (4+ requests instead of 1: see docs/commands.md, "Copy policy").
  keepPartLayout: { default: false, help: 'copy every multipart source part by part in its own layout, so its ETag is kept' },
  partSize: { type: 'size', min: 5 * MiB, max: 5 * GiB, why: 'S3\'s limits for a part' },
  maxQueueSize: { default: 10000, type: 'int', min: 1, help: 'listed objects waiting for a copier before listing pauses' },
  dryrun: {}, journal: {}, resume: {},
  resumeMaxAge: { default: '7d', type: 'duration', help: 'an earlier run\'s journal older than this is not resumed' },
  // A run whose first objects all fail the same way stops (nothing succeeded meanwhile).
  maxFailures: { default: 100, type: 'int', min: 1, help: 'stop after this many objects failed for the same reason while none succeeded' },
  // compare and sync.
  // How far --checksum goes: stored checksums, ETags and local files only, or (download)
  // reading objects too.
  checksum: { type: 'choice', choices: ['stored', 'download'] },
  compareTime: {}, ignoreEtags: {}, show: {}, sizeOnly: {}, overwrite: {},
  delete: {}, maxDelete: { type: 'int', min: 0 }, force: {},
  // Deletes carry the listed ETags; refuse where the server is not found to honour them.
  requireConditional: {},
  // rm, cat, head, cp from a stream.
  deleteConcurrency: { default: 32, type: 'int', min: 1, help: 'DeleteObjects requests (1000 keys each) at once' },
  range: {}, tags: {}, stream: {},
  // manifest: where the S3 Batch Operations manifest goes (a file or s3://bucket/key).
  output: {},
  // Callbacks and run plumbing.
  signal: {}, stopSignal: {}, log: {}, progress: {}, stats: {},
  onProgress: {}, onObject: {}, onUpload: {}, onConcurrency: {}, onPair: {}, onDelete: {},
  // Stores of the caller's own in place of the source or target (see docs/library.md).
  store: {}, targetStore: {},
  // Shards (stages/shards.js): which key range of a plan this process takes, and where its
  // result goes for merge. emptyRange: a shard the plan gave nothing (set by the shard code).
  shard: {}, shards: { type: 'int', min: 1 }, plan: {}, planBudget: { type: 'int', min: 1 }, result: {}, emptyRange: {}, mergeState: {},
  // Set by the stages, not by callers: paths already read (stages/paths.js), and a listing
  // of a target that may not exist yet.
  sourceLocation: {}, targetLocation: {}, targetSide: {}, selectKey: {},
  // Versions: every version, one version, or the source as it was at a moment.
  allVersions: {}, versionId: {}, asOf: {},
  // Metadata and tags of every object, from HeadObject (and GetObjectTagging), for --filter,
  // summarize --by and the listing's output.
  withMetadata: {}, withTags: {}, by: {},
  headConcurrency: { default: 500, type: 'int', min: 1, help: 'HeadObject requests in flight at once (adapts to throttling)' },
  onProblem: {},
  // presign: how long the URL works (SigV4 allows 1 s to 7 days), and what it lets its holder do.
  expiresIn: { default: '3600', type: 'duration', min: 1000, max: 604800000, why: 'SigV4 allows up to 7 days', help: 'seconds (or 12h, 7d) the URL works' },
  method: {},
  // Set by mv, not by callers: what copy does after each object copied and at the end (stages/move.js).
  move: {},
};

// The CLI's own settings, from the environment: how long a first Ctrl-C lets requests in
// flight finish before they are aborted (S3BLITZ_GRACE_MS).
const CLI = { graceMs: Number(env.S3BLITZ_GRACE_MS) || 10000 };

const DEFAULTS = Object.freeze(Object.fromEntries(Object.entries(OPTIONS).filter(([, o]) => 'default' in o).map(([k, o]) => [k, o.default])));

// Edit distance, for "did you mean".
function distance(a, b) {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1].toLowerCase() === b[j - 1].toLowerCase() ? 0 : 1));
    }
  }
  return d[a.length][b.length];
}

function suggestion(name) {
  let best = null, bestD = Infinity;
  for (const k of Object.keys(OPTIONS)) {
    const dd = distance(name, k);
    if (dd < bestD) { best = k; bestD = dd; }
  }
  return bestD <= Math.max(2, Math.floor(name.length / 4)) ? best : null;
}

// "--list-concurrency" for listConcurrency: errors name the CLI's flag.
function flagOf(name) {
  return `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

// 5242880 -> "5MiB": a range's ends as the user would type them.
function sizeText(n) {
  if (n >= GiB && n % GiB === 0) return `${n / GiB}GiB`;
  if (n >= MiB && n % MiB === 0) return `${n / MiB}MiB`;
  return String(n);
}

// One value of a typed option, parsed and checked against the table's type and range; the
// default when not given. Options the table gives no type pass through as they are.
function parseOption(name, value) {
  const o = OPTIONS[name];
  if (value === undefined || value === null) value = o.default;
  if (value === undefined || value === null || !o.type) return value;
  const flag = flagOf(name);
  const why = o.why ? ` (${o.why})` : '';
  if (o.type === 'duration') {
    const ms = parseDuration(value, flag);
    if ((o.min !== undefined && ms < o.min) || (o.max !== undefined && ms > o.max)) {
      throw new UsageError(`${flag} must be between ${o.min / 1000} and ${o.max / 1000} seconds${why}, not ${JSON.stringify(String(value))}`);
    }
    return ms;
  }
  if (o.type === 'choice') {
    if (value === false) return false;
    if (value === true) return o.choices[0];
    if (o.choices.includes(value)) return value;
    throw new UsageError(`${flag} must be ${o.choices.join(' or ')}, not ${JSON.stringify(String(value))}`);
  }
  if (o.type === 'int') {
    const n = positiveInt(value, flag, { allowZero: o.min === 0 });
    if (o.max !== undefined && n > o.max) throw new UsageError(`${flag} must be at most ${o.max}${why}, not ${n}`);
    return n;
  }
  const n = parseSize(value, flag);
  if ((o.min && n < o.min) || (o.max !== undefined && n > o.max)) {
    throw new UsageError(o.max !== undefined ? `${flag} must be between ${sizeText(o.min)} and ${sizeText(o.max)}${why}` : `${flag} must be at least ${sizeText(o.min)}${why}`);
  }
  return n;
}

// Marks options parseOptions returned; spreads ({ ...options, x }) keep it, Object.keys and
// JSON do not see it.
const PARSED = Symbol('s3blitz.parsedOptions');
// Marks options whose startAfter/stopAt s3blitz computed (a shard's range), not the caller's:
// a symbol, so it survives copies of the options and no option check sees it.
const COMPUTED_RANGE = Symbol('s3blitz.computedRange');

// The one place a caller's options are checked: unknown names rejected (checkOptions), typed
// values parsed and range-checked, and their defaults applied. Returns a new object; the
// caller's is not changed. Options already parsed are returned as they are.
function parseOptions(options, fnName) {
  checkOptions(options, fnName);
  if (options[PARSED]) return options;
  const out = { ...options };
  for (const [name, o] of Object.entries(OPTIONS)) {
    if (!o.type || (o.unsetStays && out[name] === undefined)) continue;
    const v = parseOption(name, out[name]);
    if (v !== undefined) out[name] = v;
  }
  out[PARSED] = true;
  return out;
}

// A typed option's value where it is used: as parseOptions left it, or, for options built by
// hand (internal callers, tests) and for an unset value, parsed here by the same rules.
function option(options, name) {
  if (options && options[PARSED] && options[name] !== undefined && options[name] !== null) return options[name];
  return parseOption(name, options ? options[name] : undefined);
}

// Whether value is a typed option's default as parseOptions fills it in: journals leave defaults out
// of a run's identity, so filling them in does not change which journal a run resumes.
function isDefault(name, value) {
  const o = OPTIONS[name];
  return Boolean(o && o.type && 'default' in o && !o.unsetStays) && parseOption(name, o.default) === value;
}

// Option names whose values are numbers (the CLI's --api-example shows them as numbers).
const NUMERIC = new Set(Object.keys(OPTIONS).filter((k) => OPTIONS[k].type === 'int'));

// Throws a UsageError naming the first option the table does not know.
function checkOptions(options, fnName) {
  if (options === null || typeof options !== 'object') throw new UsageError(`${fnName}: options must be an object`);
  for (const k of Object.keys(options)) {
    if (Object.prototype.hasOwnProperty.call(OPTIONS, k)) continue;
    const s = suggestion(k);
    throw new UsageError(`${fnName}: unknown option ${JSON.stringify(k)}${s ? ` (did you mean ${JSON.stringify(s)}?)` : ''}`);
  }
  return options;
}

// The CLI help for an option: its text and the default from the table.
function help(name) {
  const o = OPTIONS[name];
  return `${o.help} (default: ${o.default})`;
}

module.exports = { COMPUTED_RANGE, OPTIONS, DEFAULTS, CLI, NUMERIC, MiB, GiB, positiveInt, parseDuration, parseSize, checkOptions, parseOptions, parseOption, option, isDefault, flagOf, help };
