'use strict';
// Every tuning number of the key-range planners (src/plan/) and the listers (src/list/), in
// one table: each with what raising or lowering it trades, and what set it. Code reads
// them as `const T = require('./tuning').values` (T.NAME). Facts are not here: S3's page of
// 1,000 keys (PAGE), the delimiter, Unicode's code points, key-shape sentinels.
// test/unit/tuning.test.js fails when a module of src/plan or src/list declares a numeric
// constant of its own.
//
// setBy names the commit that brought the number in. "chosen, not measured" is said when
// no measurement of that number is on record; where a whole planner was measured with the
// number inside it, that is said too, and that the number was not varied alone.

// The lister's planner, written against the ten named layouts (bench/layouts.js) and
// measured as a whole by bench/sim-list.js --keys 1000000 (docs/benchmark.md, 2026-11-24).
const PLANNER = (commit) => `chosen, not measured alone (${commit}); the planner as a whole measured by bench/sim-list.js --keys 1000000 on the named layouts (docs/benchmark.md, 2026-11-24)`;
// The shard planner's balance work: the set measured together by the largest shard / mean
// on bench/layouts.js + test/helpers/plan-layouts.js, 200k keys in 16 shards.
const BALANCE = (commit) => `chosen, not measured alone (${commit}); the shard planner as a whole measured by max/mean shard size on bench/layouts.js + test/helpers/plan-layouts.js, 200k keys / 16 shards: 1.00-1.31, tenants 1.68 (c348501, 2026-11-25); with sweeps 1.00-1.31 (2026-11-29), and the 20 drawn layouts of the benchmark, 1M keys, in docs/scale-out.md`;

const TABLE = {
  // plan/online.js: where the parallel lister cuts next
  LEARN_EVERY: { value: 97, trades: 'every n-th key of each page teaches the key shape: lower sees more keys (better cuts and scouts) for more CPU per page; higher the reverse', setBy: PLANNER('62f7cec, 2026-11-22') },
  CUT_MIN_PIECES: { value: 2, trades: "a segment's estimated remainder is cut only when it holds this many pieces of minPiece: higher cuts later and fewer (fewer wasted requests, less parallelism early)", setBy: PLANNER('074e15d, 2026-11-24') },
  CUT_EVIDENCE: { value: 2, trades: "a segment is cut into pieces holding at most this many times the keys it has read in the subtree it is in (a page at least): higher fans out sooner where estimates are right, lower wastes fewer requests where the key shape misjudges the keys", setBy: 'measured 2026-11-26 (bench/sim-list.js, 1M keys, concurrency 100, 11 named + 20 drawn layouts, ordered): against no cap, LIST requests 71,233 -> 66,176 and round trips 981 -> 947; 2 and 4 tried on flat-2819 (3,444 and 3,543 requests, from 4,704)' },
  FOLDER_TRIAL_LISTINGS: { value: 3, trades: "folder listings sent at a depth before its fan-out decides whether more are worth it: higher spends more on deep narrow trees, lower may give up on folders before they show many", setBy: PLANNER('074e15d, 2026-11-24') },
  FOLDER_SIZE_TRIALS: { value: 4, trades: 'folders read whole at a depth before their mean size spaces the segments placed at that depth\'s folders: lower spaces them sooner on less evidence, higher places one per folder longer', setBy: 'chosen, not varied alone (1247ffb, 2026-11-26); with FOLDER_PIECE_KEYS, measured by bench/sim-list.js (1M keys, concurrency 100, 11 named + 20 drawn layouts) against one segment per folder: ordered LIST requests 66,176 -> 61,623, unordered 61,243 -> 56,511 (docs/lister.md)' },
  FOLDER_PIECE_KEYS: { value: 1000, trades: 'keys a segment placed at listed folders is meant to hold, by the mean size of folders read whole at that depth: higher places fewer segments (fewer requests returning a few keys, less parallelism where folders are many and small), lower the reverse', setBy: 'chosen, not varied alone: a page (1247ffb, 2026-11-26); measured with FOLDER_SIZE_TRIALS, see there' },
  FOLDER_MIN_FANOUT: { value: 4, trades: 'mean folders a listing must name at a depth for listings to go on there: higher lists folders only where they are many (fewer requests naming one or two), lower lists more often instead of scouting', setBy: PLANNER('074e15d, 2026-11-24') },
  SCOUT_FIRST: { value: 8, trades: 'guesses a place gets before any has found keys (scouts of a position under one prefix; pieces cut from one subtree): higher fans out sooner where the key shape guesses right, for empty answers where its alphabet came from other folders or its estimate is too high', setBy: 'measured 2026-12-02 with SCOUT_GROWTH, the cut bound by keys read in the subtree and the gaps learnt from pages (bench/sim-list.js, 1M keys, concurrency 100, 11 named layouts and 20 drawn, seed 2811): against guesses unbounded, LIST requests on drawn layouts ordered 39,427 -> 35,135 and round trips 619 -> 582, unordered 34,620 -> 32,095 and 452 -> 439; named layouts within 1%. 4 and 2 tried on tree-2811, tree-2820, unicode: unicode took 27 round trips where 20 (docs/lister.md)' },
  SCOUT_GROWTH: { value: 4, trades: 'more guesses a place may get for each of its guesses that found keys: higher fans out in fewer round trips where siblings are many, for more empty answers past the last of them', setBy: 'measured with SCOUT_FIRST, see there; 2 tried with SCOUT_FIRST 8 on unicode alone (20 round trips against 19, both with the cut bound by all keys read)' },
  SCOUT_PLACES: { value: 20000, trades: 'places whose guesses are counted at once (the oldest forgotten past it): higher remembers more for memory (a key prefix each: a few MB for keys of 100 bytes, up to 40 MB for keys of 1,024 bytes of 2-byte characters)', setBy: 'chosen, not measured: about 200 round trips of 100 guesses' },

  // plan/key-shape.js: the model of what keys look like, position by position
  SHAPE_MAX_LEVELS: { value: 64, trades: 'folder levels of a key tracked apart: higher models deeper keys for memory; positions past it are not modelled (guesses only there)', setBy: 'chosen, not measured (074e15d, 2026-11-24)' },
  SHAPE_MAX_OFFSET: { value: 128, trades: 'characters into a folder name tracked apart: higher models longer names for memory; positions past it are not modelled', setBy: 'chosen, not measured (074e15d, 2026-11-24)' },
  SHAPE_MAX_AREAS: { value: 256, trades: 'top-level folders modelled apart (the rest share one model): higher keeps more areas separate for memory', setBy: 'chosen, not measured (559d081, 2026-11-24)' },
  SHAPE_MAX_CHARS: { value: 96, trades: 'distinct characters kept per position before it takes any character seen anywhere: higher keeps sharper alphabets for memory and CPU', setBy: 'chosen, not measured (074e15d, 2026-11-24)' },
  SHAPE_MAX_ALPHABET: { value: 4096, trades: 'distinct code points kept in the whole alphabet: higher knows more characters for memory and CPU in every alphabet built from it', setBy: 'chosen, not measured (074e15d, 2026-11-24)' },
  SHAPE_MISSES: { value: 2, trades: 'probes or gaps that find no sibling before a character is no longer guessed at a position: lower gives up on characters sooner (fewer empty scouts, more keys missed by estimates)', setBy: PLANNER('074e15d, 2026-11-24') },
  SHAPE_LETTERS: { value: 2, trades: 'letters of one case seen at a position before every letter of that case is allowed there: lower guesses wider (more empty scouts), higher narrower', setBy: PLANNER('074e15d, 2026-11-24') },
  SHAPE_KINDS_ANY: { value: 3, trades: 'kinds of character (digit, lower, upper, other) seen at a position before it may take any character: lower guesses wider, higher narrower', setBy: PLANNER('074e15d, 2026-11-24') },
  SHAPE_BROAD_RUN: { value: 8, trades: 'constant positions before the first varying one that the broad shape lets vary too: higher finds more unexplored room (more probes), lower may miss keys past one page', setBy: BALANCE('6ef7ae0, 2026-11-25') },
  SHAPE_GAP_DEPTH: { value: 12, trades: 'positions past where two neighbouring keys part that count misses: higher learns more from each gap for CPU', setBy: BALANCE('508db3e, 2026-11-25') },
  SHAPE_KEY_AT_CHARS: { value: 64, trades: 'characters a placed cut key may run past its context: higher places cuts in long keys more exactly for CPU', setBy: 'chosen, not measured (074e15d, 2026-11-24)' },
  SHAPE_KEY_AT_SHARE: { value: 1e-3, trades: "a placed key stops once what is left of its position's share is under this: lower places cuts more exactly with longer keys", setBy: 'chosen, not measured (074e15d, 2026-11-24)' },

  // plan/flat-sample.js: estimating a range's keys and quantiles from a few pages
  SAMPLE_EVERY: { value: 10, trades: "every n-th key of a read page kept to place cuts: lower places cuts more exactly for memory", setBy: BALANCE('5b76045, 2026-11-25') },
  SAMPLE_SCOUTS: { value: 4, trades: 'scouts in an unexplored interval per round: higher finds hidden regions sooner for requests', setBy: BALANCE('6ef7ae0, 2026-11-25') },
  SAMPLE_PROBES: { value: 16, trades: 'probes in one interval per round: higher refines a large interval faster, spending the budget on fewer intervals', setBy: BALANCE('c348501, 2026-11-25') },
  SAMPLE_OUTLIER: { value: 10, trades: "entries weighing more than this many times the median are left out of a page's typical entry: lower keeps one huge folder from inflating its neighbours' estimates, but ignores more real weight", setBy: BALANCE('6ef7ae0, 2026-11-25') },
  SAMPLE_UNEXPLORED: { value: 2, trades: 'an interval whose room exceeds this many times its estimate (plus SAMPLE_UNEXPLORED_PAGES) is unexplored and gets scouts: lower scouts more (requests), higher trusts estimates more', setBy: BALANCE('6ef7ae0, 2026-11-25') },
  SAMPLE_UNEXPLORED_PAGES: { value: 1, trades: 'pages of slack before room counts as unexplored: higher ignores small unexplored stretches', setBy: BALANCE('6ef7ae0, 2026-11-25') },
  SAMPLE_ONE_PAGE: { value: 1.5, trades: 'pages an interval may hold at most to be read with one probe at its start: higher spends fewer probes placing cuts in small intervals, reading more of them whole', setBy: BALANCE('6ef7ae0, 2026-11-25') },
  SAMPLE_DENSITY_SPLIT: { value: 2, trades: "neighbours' densities differing by more than this factor send a probe to where the left one's subtree ends: lower probes there more often", setBy: BALANCE('6ef7ae0, 2026-11-25') },

  // plan/shard-plan.js: a plan of N shards from a bounded sample
  PLAN_ROUND: { value: 32, trades: 'requests in flight at once while planning: higher plans in fewer round trips, each round chosen on less knowledge', setBy: BALANCE('5b76045, 2026-11-25') },
  PLAN_PACE: { value: 8, trades: 'requests a round for what has a basis while some folders have none: higher refines sooner, leaving less budget to size the unknown folders', setBy: BALANCE('6ef7ae0, 2026-11-25') },
  PLAN_SPARSE_LEVELS: { value: 3, trades: 'levels of few folders and no keys before a subtree is sampled flat: lower samples narrow trees flat sooner', setBy: BALANCE('6ef7ae0, 2026-11-25') },
  PLAN_SPARSE_FOLDERS: { value: 4, trades: 'folders a level may hold at most to count as sparse: higher samples more trees flat', setBy: BALANCE('6ef7ae0, 2026-11-25') },
  PLAN_FLAT_FOLDERS: { value: 5, trades: 'siblings a folder must have before it starts flat because one of them was sampled flat (a narrow subtree): lower starts more folders flat', setBy: BALANCE('6ef7ae0 and 9ca7f6b, 2026-11-25') },
  PLAN_PROBE_WORTH: { value: 500, trades: 'keys a second request at the same place must stand to teach: lower refines with more requests for less each', setBy: BALANCE('6ef7ae0, 2026-11-25') },
  PLAN_UNKNOWN_KEYS: { value: 1, trades: 'keys counted for a folder nothing sized once the budget is spent: higher gives unknown folders more of the shards', setBy: BALANCE('5b76045, 2026-11-25') },
  PLAN_BUDGET_MIN_SHARDS: { value: 100, trades: 'a plan of fewer shards is given the budget of this many (64 + 6 x 100 = 664 list requests): where the keys lie has to be found whatever the shard count (a folder of most of the keys among hundreds of small ones ruins 16 shards as it does 100), so fewer shards are not planned on less; lower costs fewer round trips and requests per process, higher finds more', setBy: 'measured 2026-12-02 (16 shards of the 20 drawn layouts of the benchmark, seeds 2811-2830, 1,000,000 keys each, in memory): against 160 requests, largest shard over the mean geometric mean 3.06 -> 2.05, worst 13.4 -> 9.4, within 1.3 on 3 -> 7 of 20; 17 layouts better, 3 worse (tree-2811 1.85 -> 9.43); round trips 9-22 -> 26-151, planning CPU up to 65 s (long-2821, with the in-memory store) where 10 (bench/plan-drawn.js --shards 16, against --budget 160; docs/scale-out.md)' },
  PLAN_BUDGET_BASE: { value: 64, trades: 'list requests a plan may spend, before those per shard: higher balances small plans better and costs more', setBy: 'chosen (d9ea407, 2026-11-25); bench/plan-scale.js measures what the budget buys: a billion flat keys, 100 shards, 664 requests, 1.000001 max/mean (c348501)' },
  PLAN_BUDGET_PER_SHARD: { value: 6, trades: 'list requests a plan may spend per shard: higher balances many shards better and costs more', setBy: 'chosen (d9ea407, 2026-11-25); bench/plan-scale.js measures what the budget buys (c348501)' },
  PLAN_BUDGET_MAX: { value: 1000, trades: 'list requests a plan may spend at most: higher balances huge shard counts better and costs more per process', setBy: 'chosen, not measured (d9ea407, 2026-11-25)' },

  // plan/lanes.js and stages/copy.js: a copy's source in lanes
  LANES_MAX: { value: 16, trades: 'lanes a copy lists at once at most: higher copies more top-level folders at once (per-prefix rates), each lane with fewer list slots and a smaller window', setBy: 'chosen, not measured (bbd0db4, 2026-11-25)' },
  LANES_MAX_DEPTH: { value: 4, trades: 'levels of a single folder descended to find the level to cut: higher finds lanes under deeper wrappers for a folder listing each', setBy: 'chosen, not measured (bbd0db4, 2026-11-25)' },
  LANE_MIN_CONCURRENCY: { value: 4, trades: "list requests a lane keeps in flight at least (the run's concurrency is shared out): higher lists each lane faster, going past --list-concurrency in total", setBy: 'chosen, not measured (bbd0db4, 2026-11-25)' },
  COPY_REORDER_WINDOW: { value: 20000, trades: "keys cp's listing holds back for order by default: higher keeps list slots busier for memory (copies go far slower than listing)", setBy: 'a324406 (2026-11-22): with the V8 heap-growth change of the same commit, cp of 100,000 objects on the benchmark fake S3 440 -> 223 MB peak RSS, 8-12% more CPU; not measured alone' },
  COPY_QUEUED_PAGES: { value: 4, trades: "pages cp's listing queues ahead of the copier: higher lists further ahead for memory", setBy: 'a324406 (2026-11-22), measured with COPY_REORDER_WINDOW (see there); not measured alone' },

  // stages/one-level.js: ls --delimiter of a level wider than a page
  LEVEL_CUTS: { value: 4, trades: "ranges the rest of a one-level listing's range is cut into when its first page comes back full: higher fans a wide level out in fewer round trips for more requests that come back nearly empty (a level of 1,001 entries costs up to this many more than a sequential walk)", setBy: 'chosen, not measured (2026-11-28)' },
  LEVEL_WAIT_PAGES: { value: 2, trades: "pages a range of a one-level listing reads ahead of the range being given out: higher keeps more requests busy behind a slow range for memory (ranges that send requests: --list-concurrency at most)", setBy: 'chosen, not varied (2026-11-28); a shared window of 100 pages instead was tried: a level of 200,000 numbered names then took 200 round trips (the ranges far ahead stalled), against 18' },

  // stages/move.js: mv's deletes of moved sources
  MOVE_DELETE_LINGER_MS: { value: 20, trades: "ms a moved source's delete waits for others to share its DeleteObjects request (up to 1,000 keys): higher sends fewer requests and holds each copy slot longer", setBy: 'chosen, not measured (2026-11-28)' },

  // list/parallel-lister.js: the engine
  BUDGET_START_REQUESTS: { value: 10, trades: 'list requests a listing may send before its first keys come back (the request budget\'s start): higher fans a large bucket out a round trip sooner, lower spends less on a small one', setBy: 'measured 2026-11-27 with BUDGET_REQUESTS_PER_PAGE 4 against no budget (virtual clock, concurrency 100, ordered): 200 drawn layouts of 3,000 keys 6,805 -> 3,343 LIST requests, round trips no more; 1M keys, 11 named + 20 drawn: ordered requests 61,623 -> 61,161, round trips 905 -> 945; unordered 56,511 -> 56,475 and 753 -> 759 (docs/lister.md). 20 tried: 4,020 requests on the small layouts, no steadier on the large' },
  BUDGET_REQUESTS_PER_PAGE: { value: 4, trades: 'list requests each page of keys handed on adds to the request budget for new segments and folder listings: lower holds a listing nearer one request a page (efficiency at least about its inverse) but fans out slower and guesses less where guesses find little; higher the reverse', setBy: 'measured with BUDGET_START_REQUESTS, see there; 1/0.6, 1/0.5 and 1/0.4 a page tried on 10 layouts of 1M keys: efficiency held at those floors but ordered round trips rose up to 5x (flat-2819 57 -> 319 at 1/0.6), the planner guessing too poorly to live on so little' },
  WINDOW_MIN_PAGES: { value: 100, trades: 'pages of keys ordered output may hold back at least: higher keeps slots busy behind a slow head for memory', setBy: PLANNER('074e15d, 2026-11-24') },
  WINDOW_PAGES_PER_SLOT: { value: 4, trades: 'pages held back for order per request slot: higher keeps more slots busy at high concurrency for memory', setBy: PLANNER('074e15d, 2026-11-24') },
  WINDOW_BYTES: { value: 128 * 1024 * 1024, trades: 'bytes of keys (estimated from their mean length) ordered output may hold back at most, whatever the window in pages: higher keeps slots busy on long keys for memory', setBy: 'chosen 2026-11-29 to leave the window of keys of up to about 275 ASCII characters (137 others) as it was (400,000 keys at concurrency 100); 64 MiB tried: tree-2812 RSS 475 MB where 536-562 at 128 MiB, but ordered round trips on the virtual clock up to 1.5x (docs/lister.md)' },
  HELD_ENTRY_BYTES: { value: 60, trades: 'bytes a held entry is counted besides its key (size, time, ETag, offsets) when the window is sized in bytes: higher holds fewer', setBy: 'estimated from the column layout (chunks.js), not measured' },
  MIN_PIECE_PAGES: { value: 0.5, trades: 'pages a cut piece holds at least (default of minPiecePages): lower cuts finer (more parallel, more requests that end early), higher fewer pieces', setBy: PLANNER('074e15d, 2026-11-24') },
  QUEUED_PAGES: { value: 32, trades: 'pages waiting for the consumer before requests pause (default of maxQueuedPages): higher absorbs a slow consumer for memory', setBy: 'chosen, not measured (62f7cec, 2026-11-22)' },
  COMPACT_PER_SLOT: { value: 2, trades: 'segments per request slot before finished ones are merged: lower merges more often (CPU), higher keeps more bookkeeping', setBy: 'chosen, not measured (62f7cec, 2026-11-22)' },
  COMPACT_SLACK: { value: 64, trades: 'segments beyond COMPACT_PER_SLOT x concurrency before finished ones are merged: as COMPACT_PER_SLOT, for small concurrency', setBy: 'chosen, not measured (62f7cec, 2026-11-22)' },
  EMPTY_TRUNCATED_MAX: { value: 100, trades: 'empty pages said to be truncated a listing takes before it stops (exit 3): higher waits longer on a broken store', setBy: 'chosen, not measured (62f7cec, 2026-11-22)' },
  HEDGE_SLOT_DIVISOR: { value: 10, trades: 'at most one request slot in this many (and at least one) holds a hedged twin: lower hedges more stragglers at once for duplicate requests', setBy: 'chosen, not measured (074e15d, 2026-11-24)' },

  // list/hedge.js: when a straggling list request is sent again
  HEDGE_SAMPLES: { value: 256, trades: 'recent latencies the straggler threshold is taken from: higher is steadier, slower to follow a change', setBy: 'chosen, not measured (074e15d, 2026-11-24)' },
  HEDGE_MIN_SAMPLES: { value: 20, trades: 'latencies seen before anything is hedged: lower hedges sooner on less evidence', setBy: 'chosen, not measured (074e15d, 2026-11-24)' },
  HEDGE_PERCENTILE: { value: 0.95, trades: 'the percentile of recent latencies the threshold scales: higher hedges only the slowest', setBy: 'chosen, not measured (074e15d, 2026-11-24)' },
  HEDGE_FACTOR: { value: 3, trades: 'times the percentile a request must take to be sent again: lower cuts tail latency for duplicate requests', setBy: 'chosen, not measured (074e15d, 2026-11-24)' },
  HEDGE_FLOOR_MS: { value: 50, trades: 'ms a request may always take before it is sent again (default of hedgeAfter): lower hedges fast stores\' short pauses too', setBy: 'chosen, not measured (08f28a5, 2026-11-24)' },
  HEDGE_REFRESH: { value: 16, trades: 'latencies recorded between two recomputations of the threshold: lower follows changes sooner for CPU (a sort of HEDGE_SAMPLES each time)', setBy: 'chosen, not measured (074e15d, 2026-11-24)' },

  // list/guarded-lister.js: output held back until the checks have spoken
  HOLD_PAGES: { value: 16, trades: 'pages that must pass the checks before output begins: higher finds more broken stores before output, later first output', setBy: 'chosen (efa773d, 2026-11-24, in place of 32,000 keys or 64 chunks); its cost measured on the benchmark fake S3 (100 ms a LIST): cp of 10,000 objects 2.9 s instead of 2.1 s (docs/benchmark.md)' },
  HOLD_KEYS: { value: 32000, trades: 'keys held at most while output waits for the checks: higher holds more memory, finds more before output', setBy: 'chosen, not measured (b9de7be, 2026-11-23)' },

  // list/directory-lister.js: directory buckets, listed directory by directory
  DIR_AHEAD_KEYS: { value: 500000, trades: 'keys of directories listed ahead of ordered output, at most, before no more directories start ahead: higher keeps more requests in flight while output waits on a long serial listing (a large directory, a long sweep), for memory (about 100 bytes a key)', setBy: 'bench/directory-bucket.js harness, 1,000,000 keys, 20 ms per LIST (2026-11-29): generated-2 (191,593 directories, top ones of 20,000-130,000 keys) took 17-32 s at 100,000 (32 requests in flight), 13 s at 300,000, 5.8 s at 500,000 (93 in flight, RSS 400 MB); logs and generated-1 the same at 100,000 and 500,000' },
  DIR_SWEEP_PAGES: { value: 1, trades: "pages a directory's subtree is listed in without the delimiter before that is given up for a walk: higher sweeps larger subtrees in one serial listing (fewer requests where directories are many and small), at more pages wasted and round trips waited where subtrees are large", setBy: 'measured 2026-11-28 (bench/sim-directory.js, 200k keys, concurrency 100, 11 named + 6 drawn layouts, unordered): 1, 2 and 3 pages gave the directory bucket at least half the general-purpose rate on 8, 6 and 6 of 34 runs (logs 12, 17, 22 round trips; tree-2 2,388, 1,638, 767 requests); without sweeps, deep took 2.7 million requests for 200,000 keys' },
  DIR_SWEEP_MAX_PAGES: { value: 64, trades: 'pages a sweep that keeps finding subdirectories may run on before the directory is walked: higher saves requests where a subtree holds many small directories, for round trips one after another where it then fails', setBy: 'bench/sim-directory.js, 200,000 keys, 21 layouts (2026-11-28): with the rule below, LISTs 298,977 -> 66,591, round trips 5,726 -> 3,887' },
  DIR_SWEEP_CHILDREN_PER_PAGE: { value: 4, trades: 'subdirectories a sweep must have seen per page read to go on (walking them would cost that many requests per page): lower goes on where directories are larger, risking serial pages that end in a walk anyway', setBy: 'bench/sim-directory.js (2026-11-28): 4 and 8 gave the same requests and round trips' },
  DIR_SWEEP_GIVE_UP: { value: 4, trades: 'sweeps that must fail at a depth (and fail more often than they work) before no more are tried there: higher tries longer where subtrees vary, wasting DIR_SWEEP_PAGES requests on each that fails', setBy: 'value chosen, not measured (2026-11-28); bench/sim-directory.js 2026-11-29 (200,000 keys, 21 layouts): counting sweeps under way against it took requests 67,054 -> 2,642,415, waiting for outcomes 67,054 -> 72,853 (docs/lister.md), so sweeps started together are all tried' },
  PLAN_DIR_LEVEL_PAGES: { value: 20, trades: 'pages of one directory level a directory-bucket shard plan reads before it takes the directory whole (one unit, estimated): higher can cut among the files and subdirectories of larger levels, for requests every planning process spends', setBy: 'chosen, not measured (directory buckets, 2026-11-28)' },
  DIR_ONCE_KEYS: { value: 500000, trades: "keys that unordered output from a directory bucket remembers, over the directories listed at once, to drop a key a store names twice in one directory: higher keeps more in memory (about 100 bytes a key); past it a directory's keys go to disk and are checked once it is listed (a key found twice there stops the listing, since it went out twice)", setBy: 'chosen, not measured: the memory DIR_AHEAD_KEYS allows ordered output (directory buckets, 2026-12-01)' },
  DIR_SORT_KEYS: { value: 100000, trades: "keys of one directory sorted in memory before they go to a run on disk: higher sorts large directories with fewer runs, for memory", setBy: 'chosen, not measured: ExternalSorter\'s default (directory buckets, 2026-11-28)' },

  // list/page-agreement.js: pages that overlap must agree
  RECORD_KEYS: { value: 16, trades: "first keys of a segment kept to compare overlapping pages: higher catches differences further in for memory per segment", setBy: 'chosen, not measured (b9de7be, 2026-11-23)' },

  // list/split-hints.js: where an earlier listing found its keys
  SPLIT_HINTS: { value: 400, trades: 'hint keys kept per listing (between this and twice this while collecting): higher starts later listings cut finer for cache size', setBy: 'chosen, not measured (5febbde, 2026-11-24)' },

  // list/version-at.js: the version of one key at a moment
  VERSION_EMPTY_PAGES: { value: 100, trades: "empty pages said to be truncated one key's version walk takes before it stops: higher waits longer on a broken store", setBy: 'chosen, not measured (6d8ed15, 2026-11-26)' },
};

// The values alone, as code reads them. Not enumerable: the table's entries are its names.
const values = Object.freeze(Object.fromEntries(Object.entries(TABLE).map(([name, e]) => [name, e.value])));
for (const e of Object.values(TABLE)) Object.freeze(e);
Object.defineProperty(TABLE, 'values', { value: values, enumerable: false });

module.exports = Object.freeze(TABLE);
