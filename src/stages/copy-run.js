'use strict';
// The run behind cp and sync: a copier with the run's journal, the target opened and an
// earlier run's uploads and temp files cleaned up, objects fed to the copier, every copy
// drained (also when feeding failed), and the journal completed or kept for a resume.
const { Copier, sameConnection } = require('../transfer/copier');
const { RunJournal } = require('../journal/run-journal');
const { describeS3Error } = require('../stores/s3-errors');
const { objectUrl } = require('../stores/object-url');

class CopyRun {
  /**
   * @param o {options (the command's), journal (RunJournal or null), src, dst, w, co, stats, signal,
   *   progress, prefixBase (length of the target prefix: the copier paces each folder below it on its own),
   *   targetPrefix (where --no-overwrite may write its probe objects)}
   */
  constructor({ options, journal, src, dst, w, co, stats, signal, progress, prefixBase, targetPrefix }) {
    this.options = options;
    this.journal = journal;
    this.dst = dst;
    this.stats = stats;
    this.signal = signal;
    // Start no new copies: the caller's stopSignal (Ctrl-C), or --max-failures reached.
    const stop = new AbortController();
    if (options.stopSignal) {
      if (options.stopSignal.aborted) stop.abort(options.stopSignal.reason);
      else options.stopSignal.addEventListener('abort', () => stop.abort(options.stopSignal.reason), { once: true });
    }
    this.stopSignal = stop.signal;
    this.copier = new Copier({
      src, dst, w, co, sameConnection: sameConnection(options), dryrun: Boolean(options.dryrun),
      signal, stopSignal: stop.signal, stats, onConcurrency: options.onConcurrency, log: options.log, prefixBase, targetPrefix,
      onObject: (ev) => {
        if (progress && ev.status !== 'planned') progress.done(ev.status, ev.size);
        if (options.onObject) options.onObject({ ...ev, source: objectUrl(src, ev.key), target: objectUrl(dst, ev.targetKey) });
      },
      onCapped: () => stop.abort(new Error('--max-failures')),
      afterCopy: options.move ? options.move.afterCopy : undefined,
      transfer: options.move && options.move.transferFor ? options.move.transferFor(src, dst, w, sameConnection(options)) : undefined,
      ...RunJournal.copierHooks(journal, dst.bucket, options),
    });
    if (journal) journal.attach(this.copier);
  }

  /**
   * feed(copier): adds objects (awaiting copier.add); resolves to {interrupted} when done.
   * listed(): whether every listing the run read was complete.
   * finish({complete}): work after every copy succeeded or failed (sync's deletes).
   * close(): releases the listings and stores, whatever happened.
   * Resolves to the run's {complete, interrupted, journal, ...copier.result()}.
   */
  async run({ feed, listed, finish, close }) {
    const { journal, copier, options } = this;
    const stop = options.stopSignal;
    const stopped = () => Boolean((stop && stop.aborted) || this.signal.aborted);
    let complete = false, interrupted = false;
    try {
      await this.dst.open({ create: true });
      // Before any copy: the temp files left are the earlier run's alone.
      const temp = journal ? await journal.cleanupTemp() : null;
      if (journal && journal.resumed) {
        if (options.log) options.log(journal.describe(temp));
        await journal.cleanupUploads(this.dst, this.stats);
      } else if (temp && temp.text && options.log) options.log(`starting afresh: ${temp.text}`);
      let fed;
      try {
        fed = await feed(copier);
      } finally {
        await copier.drain().catch(() => {});
      }
      await copier.drain();
      interrupted = !copier.capped && (Boolean(fed && fed.interrupted) || stopped());
      complete = listed() && !interrupted && !copier.capped;
      if (finish) await finish({ complete });
    } catch (err) {
      // Only an interrupted run is resumed; after a refusal or a fatal error the same
      // command starts afresh.
      if (journal) { if (stopped()) journal.keep(); else journal.abandon(); }
      throw describeS3Error(err, { bucket: this.dst.bucket });
    } finally {
      close();
    }
    const kept = Boolean(journal) && !complete && !copier.capped;
    if (journal) {
      if (complete) journal.complete(); else if (kept) journal.keep(); else journal.abandon();
    }
    return { complete, interrupted, journal: kept ? journal.file : null, ...copier.result() };
  }
}

module.exports = { CopyRun };
