// Type declarations of require('s3blitz') (src/index.js). Every option is the CLI's option in
// camelCase; defaults are in src/options.js and the README. test/unit/types.test.js compiles
// a typed example against this file with tsc --noEmit.
import type { Readable } from 'stream';

export interface Item {
  Key: string;
  Size: number;
  LastModified: Date | null;
  /** Quoted as S3 returns it; null for local files. */
  ETag: string | null;
  StorageClass: string | null;
  /** allVersions / asOf listings: the version, whether it is the latest, whether a delete marker. */
  VersionId?: string;
  IsLatest?: boolean;
  DeleteMarker?: boolean;
  /** allVersions: when a newer version or delete marker replaced this one (null for the latest). */
  NoncurrentSince?: Date | null;
  /** withMetadata (one HeadObject each): content headers, user metadata, encryption, checksums, lock and restore status. */
  ContentType?: string | null;
  ContentEncoding?: string | null;
  CacheControl?: string | null;
  Metadata?: Record<string, string>;
  ServerSideEncryption?: string | null;
  /** The stored checksum: its algorithm (CRC64NVME, CRC32C, CRC32, SHA256, SHA1, SHA512, MD5, XXHASH3, XXHASH64, XXHASH128: the first the object stores, in that order), FULL_OBJECT or COMPOSITE, and its value (base64, as S3 prints it). */
  ChecksumAlgorithm?: string | null;
  ChecksumType?: string | null;
  Checksum?: string | null;
  TagCount?: number | null;
  /** withTags: the object's tags. */
  Tags?: Record<string, string>;
  [field: string]: unknown;
}

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}
export type CredentialsOption = Credentials | (() => Promise<Credentials>);

/** A js: function as text ("js:(item) => ...") or the function itself. */
export type Fn<A extends unknown[], R> = string | ((...args: A) => R);

export interface Counts { objects: number; bytes: number }

export interface ProgressEvent {
  /** Listed so far (after filters). */
  items: number;
  bytes: number;
  inflight: number;
  elapsedMs: number;
  /** Items listed per second. */
  rate: number;
  listed: { objects: number; bytes: number; complete: boolean };
  /** cp and sync, once copies start. */
  copied?: Counts;
  /** rm, once deletes start. */
  deleted?: Counts;
  failed?: { objects: number };
  /** Objects finished (copied, failed, skipped, unchanged). */
  processed?: number;
  objectRate?: number;
  bytesRate?: number;
  /** Once the listing is complete. */
  percent?: number;
  etaMs?: number | null;
  /** The last event of a run. */
  done?: boolean;
}

export interface RequestStatsJSON {
  listRequests: number;
  folderListings: number;
  pages: number;
  threadRequests: number;
  keysReturned: number;
  keysUnique: number;
  overlap: number;
  /** Unique keys per list request's 1000 (1: no request wasted). */
  efficiency: number | null;
  /** Keys parsed per unique key (1: no page read twice). */
  parsedPerUnique: number | null;
  splits: number;
  hedges: number;
  hints: number;
  /** Times the request budget left free request slots unused (docs/lister.md, the request budget). */
  budgetHeld: number;
  /** Probe objects of other s3blitz runs (`.s3blitz-probe-<16 hex>`) the listing left out; absent when none. */
  probesSkipped?: number;
  /**
   * Objects uploaded or downloaded whose stored checksum was confirmed (the server's answer
   * equalled the value computed here), and those with none to confirm against; both absent
   * when no transfer checked one.
   */
  checksumsConfirmed?: number;
  checksumsUnconfirmed?: number;
  meanInflight: number;
  maxInflight: number;
  listRechecks: number;
  listChanges: number;
  fallback: 'sequential' | 'sorted' | null;
  /** List requests by what they were for (root, next, cut, scout, folder, hint, folders, recheck): requests, keys returned, keys new among them. */
  listKinds?: Record<string, { requests: number; keys: number; unique: number }>;
  requests: Record<string, number>;
  retries: number;
  throttles: number;
  bytes: number;
  estimatedCostUSD: number;
}

/** A store of the caller's own (see the README's "How the code is laid out"). */
export interface Store {
  listPage(args: { prefix?: string; startAfter?: string; continuationToken?: string; maxKeys?: number; delimiter?: string; signal?: AbortSignal }):
    Promise<{ items: Item[]; prefixes?: string[]; truncated: boolean; nextToken?: string }>;
  open(o?: { create?: boolean }): Promise<void>;
  destroy(): void;
  [method: string]: unknown;
}

export type PathFilter = { include: string } | { exclude: string };

export interface ConnectionOptions {
  endpointUrl?: string;
  region?: string;
  profile?: string;
  forcePathStyle?: boolean;
  requestPayer?: 'requester';
  credentials?: CredentialsOption;
  /** Anonymous requests to the source (public buckets). */
  noSignRequest?: boolean;
  fastPaths?: boolean;
  requestThread?: boolean;
}

export interface SourceOptions extends ConnectionOptions {
  /** s3://bucket/key, s3://bucket/folder/, s3://bucket/logs/*, an https S3 URL, or a local path. */
  source?: string;
  bucket?: string;
  /** Raw key prefix (S3P). */
  prefix?: string;
  startAfter?: string;
  stopAt?: string;
  filter?: Fn<[Item], unknown>;
  pattern?: string | RegExp;
  /** --include / --exclude in order: the last rule that matches a key decides. */
  pathFilters?: PathFilter[];
  listConcurrency?: number | string;
  maxListRequests?: number | string;
  sequential?: boolean;
  unordered?: boolean;
  splitHints?: false | string;
  folders?: boolean;
  hedge?: boolean;
  reorderWindow?: number;
  maxQueuedPages?: number;
  store?: Store;
  signal?: AbortSignal;
  onProgress?: (event: ProgressEvent) => void;
  log?: (message: string) => void;
  progress?: unknown;
  stats?: unknown;
  /** This process's shard, "I/N" (0-based); else the engine's variable as is (JOB_COMPLETION_INDEX, AWS_BATCH_JOB_ARRAY_INDEX, SLURM_ARRAY_TASK_ID: an array's indices are the shard indices, 0 to N-1). */
  shard?: string;
  /** The job is split into this many shards; each process plans them itself (the same N, the same ranges). */
  shards?: number | string;
  /** A plan written by plan(): a file, or the plan itself. */
  plan?: string | Plan;
  /** Where to write the result as JSON for merge: a file or s3://bucket/key; %i is the shard index. */
  result?: string;
  /** Every version and delete marker (ListObjectVersions), key order then newest first. */
  allVersions?: boolean;
  /** The source as it was then (ISO-8601 with a zone, or a date). */
  asOf?: string | Date;
  /** cp of one key (to a bucket, a file or stdout): that version. */
  versionId?: string;
  /** One HeadObject per object: items carry its metadata. */
  withMetadata?: boolean;
  /** GetObjectTagging where HeadObject counts tags: items carry Tags. */
  withTags?: boolean;
  headConcurrency?: number | string;
  onProblem?: (problem: { key: string; versionId?: string; status: 'vanished' | 'changed' | 'failed'; reason: string }) => void;
}

export interface ShardRange {
  index: number;
  startAfter: string | null;
  stopAt: string | null;
  estimatedObjects: number;
  empty?: boolean;
}

export interface Plan {
  version: 1;
  source: string;
  range: { prefix: string; startAfter: string | null; stopAt: string | null };
  shards: number;
  requests: number;
  estimatedObjects: number;
  exact: boolean;
  createdAt: string;
  ranges: ShardRange[];
}

export interface PlanOptions extends SourceOptions {
  shards: number | string;
  /** List requests the plan may spend (default 64 + 6 per shard, at most 1000). */
  planBudget?: number | string;
}

/** What a shard's result says of its shard. */
export interface ShardInfo {
  index: number;
  of: number;
  via: string;
  empty: boolean;
  startAfter: string | null;
  stopAt: string | null;
  plan: { source: string; requests: number; estimatedObjects: number; range: Plan['range'] };
}

/** A result written with --result / the result option. */
export interface ShardResultDocument {
  version: 1;
  command: string;
  finishedAt: string;
  shard: ShardInfo | null;
  result: Record<string, unknown>;
}

export interface MergeOptions extends ConnectionOptions {
  /** Refuse (SafetyError, exit 4) when the shards deleted more than this in all. */
  maxDelete?: number;
}

/** The shards' results combined: the command's own result fields, and which shards there were. */
export interface MergedResult {
  command: string;
  shards: { of: number; present: number; missing: number[] };
  source: string;
  target?: string;
  complete: boolean;
  stats: Record<string, unknown>;
  [field: string]: unknown;
}

export interface TargetOptions {
  target?: string;
  toBucket?: string;
  toPrefix?: string;
  addPrefix?: string;
  toKey?: Fn<[string], string>;
  toEndpointUrl?: string;
  toRegion?: string;
  toProfile?: string;
  toCredentials?: CredentialsOption;
  targetStore?: Store;
}

export interface WriteOptions {
  acl?: string;
  storageClass?: string;
  cacheControl?: string;
  contentType?: string;
  contentDisposition?: string;
  contentEncoding?: string;
  contentLanguage?: string;
  expires?: string | Date;
  metadata?: string | Record<string, string>;
  metadataDirective?: 'COPY' | 'REPLACE';
  tagging?: string;
  sse?: 'AES256' | 'aws:kms';
  sseKmsKeyId?: string;
  /**
   * Never replace a target object: PutObject, CopyObject and CompleteMultipartUpload carry
   * If-None-Match: *, on request types the server is found to honour it on (one probe each);
   * a key that exists is `skipped` (reason "exists (--no-overwrite)"); a server that honours it
   * on no usable request makes the run throw a SafetyError (exit 4) before anything is written.
   * S3 targets only.
   */
  noOverwrite?: boolean;
  /**
   * The checksum every upload (from files and streams) sends and has confirmed: default
   * CRC64NVME, or 'none' (or false) for servers that reject x-amz-checksum-* headers.
   * Given, it is also what each CopyObject copy is stored with (the server computes it);
   * not given, a copy keeps its source's checksum. Case does not matter. SHA512, MD5 and
   * XXHASH* are read and compared where objects store them, but refused here.
   */
  checksumAlgorithm?: 'CRC64NVME' | 'CRC32C' | 'CRC32' | 'SHA256' | 'SHA1' | 'none' | false | string;
}

export interface RunOptions {
  dryrun?: boolean;
  /** A journal file, or false for none. */
  journal?: string | false;
  resume?: boolean;
  /** "7d", "12h", "30m", "90s" or seconds. */
  resumeMaxAge?: string | number;
  maxFailures?: number | string;
  /** Start no new work; the journal is kept for a resume. */
  stopSignal?: AbortSignal;
}

export interface CopyOptions extends SourceOptions, TargetOptions, WriteOptions, RunOptions {
  copyConcurrency?: number | string;
  largeCopyConcurrency?: number | string;
  partConcurrency?: number | string;
  largeCopyThreshold?: number | string;
  partSize?: number | string;
  keepPartLayout?: boolean;
  maxQueueSize?: number | string;
  onObject?: (outcome: ObjectOutcome) => void;
  onUpload?: (uploadId: string, key: string) => void;
  /** A pool's or a target prefix's concurrency changed; rate: a prefix's paced requests a second, once it has been throttled. */
  onConcurrency?: (event: { name: string; t: number; limit: number; rate?: number; reason: string }) => void;
}

export type Status = 'copied' | 'planned' | 'failed' | 'changed' | 'skipped' | 'vanished';

export interface ObjectOutcome {
  key: string;
  targetKey: string | null;
  /** The source and target as a user would type them (s3://bucket/key, or a file's path). */
  source?: string;
  target?: string | null;
  size: number;
  status: Status;
  reason?: string;
  bytes?: number;
  /** mv: the source was deleted, its copy proven this way. */
  moved?: boolean;
  provenBy?: ProofKind;
}

/** How mv proved a copy before deleting its source. */
export type ProofKind = 'etag' | 'checksum' | 'md5' | 'read' | 'received';

export interface MoveOptions extends CopyOptions {
  /** DeleteObjects requests (up to 1000 keys each) in flight at once. */
  deleteConcurrency?: number | string;
  /** Throw a SafetyError (exit 4) before deleting where the server is not found to honour conditional deletes. */
  requireConditional?: boolean;
}

export interface MoveResult extends CopyResult {
  /** Sources deleted, their copies proven. */
  moved: Counts;
  provenBy: Record<ProofKind, number>;
}

export interface Failure { key: string; targetKey?: string | null; status: string; reason: string }
export interface FailureReason { reason: string; count: number }

export interface CopyResult {
  source: string;
  target: string;
  dryrun: boolean;
  complete: boolean;
  interrupted: boolean;
  /** The journal kept for a resume, or null. */
  journal: string | null;
  copied: Counts;
  failed: Counts;
  changed: Counts;
  skipped: Counts;
  vanished: Counts;
  planned?: Counts;
  failures: Failure[];
  failureReasons: FailureReason[];
  stoppedByFailures?: FailureReason;
  concurrencyTrace: unknown;
  collisions?: number;
  ok: boolean;
  /** Set when a wildcard path, or a name that is neither an object nor a folder, matched nothing. */
  noMatch?: string;
  stats: RequestStatsJSON;
}

export type CompareClass = 'only-source' | 'only-target' | 'size-differs' | 'content-differs' | 'older' | 'unknown' | 'same';

export interface CompareOptions extends SourceOptions, TargetOptions {
  compareTime?: boolean;
  /** Settle same-size pairs by stored checksums and ETags (true or 'stored': no object read), or also by reading objects ('download'). */
  checksum?: boolean | 'stored' | 'download';
  ignoreEtags?: boolean;
  show?: CompareClass[] | 'all' | string;
  onPair?: (pair: PairRecord) => void;
}

export interface PairRecord {
  class: CompareClass;
  key: string | null;
  targetKey: string;
  source: Item | null;
  target: Item | null;
}

export interface CompareResult {
  source: string;
  target: string;
  method: 'merge' | 'sorted-spool';
  methodNote: string;
  classes: Record<CompareClass, Counts>;
  /** Nothing differs (unknown pairs and pairs judged by size do not count). */
  identical: boolean;
  /** Pairs whose content was not checked: unknown ones, and those judged by size (and time). */
  judgedBySize: number;
  /** Pairs on both sides by how they were judged: 'size', 'size+time', 'etag', 'part sizes', 'read', 'checksum CRC64NVME' (and the other algorithms). */
  judgedBy: Record<string, number>;
  /** identical, and every pair's content checked. */
  verified: boolean;
  /** The classes per top-level folder below each side's prefix (differing folders first). */
  folders: DifferenceFolder[];
  unmappable: { key: string; reason: string }[];
  complete: boolean;
  stats: RequestStatsJSON;
  keys(kind: CompareClass): AsyncIterable<PairRecord>;
  dispose(): void;
}

export interface SyncOptions extends CopyOptions, CompareOptions {
  sizeOnly?: boolean;
  overwrite?: boolean;
  delete?: boolean;
  maxDelete?: number | string;
  force?: boolean;
  /** With delete: throw a SafetyError (exit 4) before deleting where the server is not found to honour conditional deletes. */
  requireConditional?: boolean;
  /** status: a delete that did not happen ('changed': rewritten since it was listed; 'vanished': gone already). */
  onDelete?: (event: { key: string; size: number; url?: string; dryrun?: boolean; status?: 'changed' | 'vanished'; reason?: string }) => void;
}

export interface SyncResult extends CopyResult {
  method: 'merge' | 'sorted-spool';
  classes: Record<CompareClass, Counts>;
  /** Pairs on both sides by how they were judged, as in CompareResult. */
  judgedBy: Record<string, number>;
  deleted: Counts;
  /** Target keys rewritten since they were listed: not deleted (ok is then false). */
  deleteChanged: Counts;
  /** Target keys someone else deleted first. */
  deleteVanished: Counts;
  deleteRefused: string | null;
  unmappable: { key: string; reason: string }[];
}

export interface SummarizeOptions extends SourceOptions {
  summarizeFolders?: boolean;
  depth?: number | string;
  top?: number | string;
  largest?: number | string;
  /** A JSON price table (file or object) for the storage cost estimate. */
  prices?: string | Record<string, unknown>;
  incompleteUploads?: boolean;
  /** content-type, metadata:NAME or tag:NAME (implies the HEADs it needs). */
  by?: string;
}

export interface MetadataScan {
  headRequests: number;
  taggingRequests: number;
  seconds: number;
  headsPerSecond: number | null;
  vanished: number;
  changed: number;
  failed: number;
  problems: { key: string; versionId?: string; status: string; reason: string }[];
  estimatedCostUSD: number;
}

export interface Group { name: string; objects: number; bytes: number }

export interface DifferenceFolder {
  name: string;
  objects: number;
  /** Pairs in a class that differs. */
  differ: number;
  classes: Partial<Record<CompareClass, Counts & { examples: string[] }>>;
}

export interface Summary {
  objects: number;
  bytes: number;
  minSize: number | null;
  maxSize: number | null;
  meanSize: number | null;
  histogram: { min: number; max: number | null; objects: number; bytes: number }[];
  storageClasses: Group[];
  extensions: Group[];
  folders?: Group[];
  depth?: number;
  oldest: { key: string; lastModified: string } | null;
  newest: { key: string; lastModified: string } | null;
  approximate?: boolean;
  [field: string]: unknown;
}

export interface ReadResult {
  complete: boolean;
  stats: RequestStatsJSON;
  noMatch?: string;
  /** withMetadata / withTags / by: the scan's requests and problems. */
  metadataScan?: MetadataScan;
}

export interface SummarizeResult extends ReadResult { summary: Summary; source: string }
export interface LsResult extends ReadResult { items: Item[] }

export interface EachOptions extends SourceOptions {
  map?: Fn<[Item], unknown>;
  mapList?: Fn<[Item[]], unknown>;
}

export interface MapOptions<T = unknown> extends SourceOptions {
  map: Fn<[Item], T | Promise<T>>;
  reduce?: Fn<[T, T], T | Promise<T>>;
  finally?: Fn<[T], unknown>;
  default?: unknown;
  onValue?: (value: T) => void;
}

export interface RmOptions extends SourceOptions, RunOptions {
  maxDelete?: number | string;
  deleteConcurrency?: number | string;
  /** Throw a SafetyError (exit 4) before deleting where the server is not found to honour conditional deletes (each key deleted only while its ETag is the listed one). */
  requireConditional?: boolean;
  /**
   * A key not deleted has status ('changed': rewritten since it was listed; 'vanished': gone
   * already; 'failed') and error. allVersions: each version's event has versionId and
   * deleteMarker; a failure has failed and reason.
   */
  onDelete?: (event: { key: string; size: number; url?: string; dryrun?: boolean; status?: 'changed' | 'vanished' | 'failed'; error?: string; versionId?: string; deleteMarker?: boolean; failed?: boolean; reason?: string }) => void;
}

export interface RmResult {
  source: string;
  dryrun: boolean;
  deleted: Counts;
  failed: Counts;
  /** Keys rewritten since they were listed: not deleted (ok is then false). Not with allVersions. */
  changed?: Counts;
  /** Keys someone else deleted first (not a failure). Not with allVersions. */
  vanished?: Counts;
  planned?: Counts;
  failures: Failure[];
  failureReasons: FailureReason[];
  stoppedByFailures?: FailureReason;
  complete: boolean;
  interrupted: boolean;
  journal: string | null;
  ok: boolean;
  noMatch?: string;
  stats: RequestStatsJSON;
  /** allVersions: the delete markers deleted (deleted counts the versions). */
  deleteMarkers?: Counts;
}

export interface MetadataScanEstimate {
  objects: number;
  headRequests: number;
  taggingRequestsAtMost: number;
  estimatedCostUSD: number;
  listRequests: number;
  listCostUSD: number;
  complete: boolean;
  note: string;
}

export interface CatOptions extends ConnectionOptions {
  source: string;
  /** "0-99", "100-", "-500" or "bytes=0-99". */
  range?: string;
  /** That version of the object. */
  versionId?: string;
  /** The object as it was then: its newest version at or before it (ISO-8601 with a zone, a date, a Date or ms). */
  asOf?: string | Date | number;
  signal?: AbortSignal;
}

export interface CatResult {
  stream: Readable;
  contentLength?: number;
  contentRange?: string;
  contentType?: string;
  etag?: string;
  /** The version read (where the store has versions). */
  versionId?: string;
}

export interface HeadOptions extends ConnectionOptions {
  source: string;
  tags?: boolean;
  /** That version of the object. */
  versionId?: string;
  /** The object as it was then: its newest version at or before it. */
  asOf?: string | Date | number;
  signal?: AbortSignal;
}

export interface HeadResult {
  Bucket: string;
  Key: string;
  ContentLength?: number;
  ContentType?: string;
  ETag?: string;
  LastModified?: Date;
  Metadata?: Record<string, string>;
  StorageClass?: string;
  Tags?: Record<string, string>;
  [field: string]: unknown;
}

export interface PutStreamOptions extends ConnectionOptions, WriteOptions {
  target: string;
  stream: NodeJS.ReadableStream | AsyncIterable<Buffer | Uint8Array | string>;
  partSize?: number | string;
  partConcurrency?: number | string;
  signal?: AbortSignal;
  /** Notices (with noOverwrite: a request type the server ignores If-None-Match on). */
  log?: (message: string) => void;
}

/** skipped: with noOverwrite, the object existed and the stream was not written. */
export interface PutStreamResult { target: string; bytes: number; parts: number; etag?: string; skipped?: 'exists'; stats: RequestStatsJSON }

/** manifest: an S3 Batch Operations manifest (CSV) of what a listing selects. */
export interface ManifestOptions extends SourceOptions {
  /** A local file, or s3://bucket/key; with a shard, "%i" in it is the shard's index. */
  output: string;
  /** An S3 manifest longer than this goes up in parts of this size (default 8MiB). */
  partSize?: number | string;
}

export interface ManifestResult extends ReadResult {
  output: string;
  source: string;
  bucket: string;
  objects: number;
  bytes: number;
  /** Without quotes. etagSource 's3': as S3 answered the upload; 'md5': the file's MD5, its ETag once uploaded in one PutObject. */
  etag: string;
  etagSource: 's3' | 'md5';
  spec: { Format: 'S3BatchOperations_CSV_20180820'; Fields: Array<'Bucket' | 'Key' | 'VersionId'> };
  /** The Location of a CreateJob request's Manifest (an s3:// output only). */
  location: { ObjectArn: string; ETag: string } | null;
  /** With allVersions: the delete markers in the range, which a manifest leaves out. */
  deleteMarkers?: number;
  shard?: ShardInfo;
}

export interface BucketOptions extends ConnectionOptions {
  source?: string;
  bucket?: string;
  signal?: AbortSignal;
}

export interface RbOptions extends BucketOptions, RunOptions {
  force?: boolean;
  /** With force: every version and delete marker first. */
  allVersions?: boolean;
  maxDelete?: number | string;
  deleteConcurrency?: number | string;
  requireConditional?: boolean;
  onDelete?: RmOptions['onDelete'];
  stopSignal?: AbortSignal;
}

export interface BucketInfo { Name?: string; CreationDate?: Date; BucketRegion?: string }

export function items(options: SourceOptions): AsyncGenerator<Item, void, undefined>;
export function pages(options: SourceOptions): AsyncGenerator<Item[], void, undefined>;
export function ls(options: SourceOptions): Promise<LsResult>;
export function summarize(options: SummarizeOptions): Promise<SummarizeResult>;
export function each(options: EachOptions): Promise<ReadResult & { count: number }>;
export function map<T = unknown>(options: MapOptions<T>): Promise<ReadResult & { result: unknown; count: number }>;
export function copy(options: CopyOptions): Promise<CopyResult>;
export function cp(options: CopyOptions): Promise<CopyResult>;
export interface PresignOptions extends ConnectionOptions {
  /** s3://bucket/key */
  source: string;
  /** 'get' (the default) or 'put'. */
  method?: 'get' | 'put' | 'GET' | 'PUT';
  /** Seconds, or a duration such as '12h' or '7d' (at most 7 days). Default 3600. */
  expiresIn?: number | string;
  versionId?: string;
}

export interface PresignResult { url: string; method: 'GET' | 'PUT'; bucket: string; key: string; expiresIn: number; expires: string }

/** A presigned URL for one object, signed offline with the caller's credentials. */
export function presign(options: PresignOptions): Promise<PresignResult>;

/** Copies, proves each copy, then deletes its source (with its listed ETag). */
export function mv(options: MoveOptions): Promise<MoveResult>;
export function move(options: MoveOptions): Promise<MoveResult>;
export function compare(options: CompareOptions): Promise<CompareResult>;
export function sync(options: SyncOptions): Promise<SyncResult>;
export function listBuckets(options?: ConnectionOptions): Promise<BucketInfo[]>;
export function rm(options: RmOptions): Promise<RmResult>;
declare function rmAlias(options: RmOptions): Promise<RmResult>;
export { rmAlias as delete };
export function cat(options: CatOptions): Promise<CatResult>;
export function head(options: HeadOptions): Promise<HeadResult>;
export function putStream(options: PutStreamOptions): Promise<PutStreamResult>;
export function manifest(options: ManifestOptions): Promise<ManifestResult>;
/** S3 Batch Operations manifest lines: "bucket,key[,versionId]\n", every field URL-encoded (what manifest and ls --format s3-batch-csv write). */
export const batchManifest: {
  FORMAT: 'S3BatchOperations_CSV_20180820';
  manifestRow(bucket: string, key: string, versionId?: string): string;
  manifestRows(bucket: string, chunk: { length: number; key(i: number): string; toItems(): Array<{ Key: string; VersionId?: string; DeleteMarker?: boolean }> }, options?: { versions?: boolean; counts?: { rows: number; deleteMarkers: number } }): string;
  manifestSpec(options?: { versions?: boolean }): ManifestResult['spec'];
  encodeField(text: string): string;
  parseManifestRow(line: string): { bucket: string; key: string; versionId?: string };
};
export function mb(options: BucketOptions): Promise<{ bucket: string; created: boolean }>;
export function plan(options: PlanOptions): Promise<Plan>;
export function merge(paths: string | string[], options?: MergeOptions): Promise<MergedResult>;
export function mergeResults(results: ShardResultDocument[], options?: MergeOptions): MergedResult;
export function readResults(paths: string[], options?: ConnectionOptions): Promise<(ShardResultDocument & { where: string })[]>;
export function writeResult(where: string, command: string, result: unknown, options?: ConnectionOptions, shard?: unknown): Promise<string>;
/** rm with allVersions: every version and delete marker of the source's range, for good. */
export function removeVersions(options: RmOptions & { allVersions: true }): Promise<RmResult>;
/** Deletes the versions an iterable yields (items or pages of {Key, VersionId}), 1000 per request. */
export function deleteVersions(store: Store, versions: AsyncIterable<Item | Item[]> | Iterable<Item | Item[]>, options?: { maxDelete?: number; force?: boolean; dryrun?: boolean; signal?: AbortSignal; onDelete?: RmOptions['onDelete'] }): Promise<Omit<RmResult, 'source' | 'complete' | 'interrupted' | 'journal' | 'ok' | 'stats' | 'dryrun'> & { count: number }>;
/** What a metadata scan of the source would send and cost, from its listing alone. */
export function estimateMetadataScan(options: SourceOptions & { by?: string }): Promise<MetadataScanEstimate>;
export function rb(options: RbOptions): Promise<{ bucket: string; removed: boolean; emptied: RmResult | null; ok: boolean }>;

export class Listing {
  constructor(options?: SourceOptions);
  readonly complete: boolean;
  readonly noMatch: boolean;
  stats: { toJSON(): RequestStatsJSON };
  chunks(): AsyncGenerator<unknown, void, undefined>;
  pages(): AsyncGenerator<Item[], void, undefined>;
  items(): AsyncGenerator<Item, void, undefined>;
  close(): void;
}

export class ParallelLister {
  constructor(store: Store, options?: Record<string, unknown>);
}

/** S3's key order: UTF-8 bytes. */
export function compareKeys(a: string, b: string): -1 | 0 | 1;

export interface Report { text(): string; json(): string }
/** Summaries and comparisons also render as Markdown and as a self-contained HTML page. */
export interface RichReport extends Report { markdown(): string; html(): string }
export type ReportFormat = 'text' | 'json' | 'markdown' | 'html';
export interface ReportOptions { human?: boolean; /** The command line shown in Markdown and HTML. */ command?: string; generatedAt?: Date | string }
export const report: {
  /** A result's report in one format (Markdown and HTML for summaries and comparisons). */
  (result: SummarizeResult | CompareResult | CopyResult | SyncResult | MoveResult | BucketInfo[], options?: ReportOptions & { format?: ReportFormat }): string;
  summary(result: SummarizeResult, options?: ReportOptions): RichReport;
  comparison(result: CompareResult, options?: ReportOptions): RichReport;
  copy(result: CopyResult | SyncResult | MoveResult): Report;
  buckets(buckets: BucketInfo[]): Report;
  pairLine: { text(pair: PairRecord): string; json(pair: PairRecord): string };
  plannedLine(event: ObjectOutcome, options?: { marked?: boolean }): string;
  plannedDeleteLine(event: { key: string; size: number }): string;
  problemLine(status: string, key: string, reason: string): string;
  format: Record<string, (...args: any[]) => string>;
};

export const EXIT: Readonly<{ OK: 0; DIFFERS: 1; USAGE: 2; FATAL: 3; SAFETY: 4; SIGINT: 130; SIGTERM: 143 }>;

export class S3BlitzError extends Error {
  constructor(message: string, options?: { exitCode?: number; code?: string; cause?: unknown });
  exitCode: number;
  code?: string;
}
export class UsageError extends S3BlitzError {}
export class FatalError extends S3BlitzError {}
export class SafetyError extends S3BlitzError {}
export class ObjectError extends Error {
  constructor(status: string, reason: string, cause?: unknown);
  status: string;
}
