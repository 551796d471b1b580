'use strict';
// The run behind cp and sync: a copier with the run's journal, the target opened and an
// earlier run's uploads cleaned up, objects fed to the copier, every copy drained (also
// when feeding failed), and the journal completed or kept for a resume.
const { Copier, sameConnection } = require('../transfer/copier');
const { RunJournal } = require('../journal/run-journal');
const { describeS3Error } = require('../stores/s3-errors');

class CopyRun {
  /**
   * @param o {options (the command's), journal (RunJournal or null), src, dst, w, co, stats, signal,
   *   prefixBase (length of the target prefix: the copier paces each folder below it on its own)}
   */
  constructor({ options, journal, src, dst, w, co, stats, signal, prefixBase }) {
    this.options = options;
    this.journal = journal;
    this.dst = dst;
    this.stats = stats;
    this.signal = signal;
    this.copier = new Copier({
      src, dst, w, co, sameConnection: sameConnection(options), dryrun: Boolean(options.dryrun),
      signal, stopSignal: options.stopSignal, stats, onObject: options.onObject, onConcurrency: options.onConcurrency, log: options.log, prefixBase,
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
    let complete = false, interrupted = false;
    try {
      await this.dst.open({ create: true });
      if (journal && journal.resumed) {
        if (options.log) options.log(journal.describe());
        await journal.cleanupUploads(this.dst, this.stats);
      }
      let fed;
      try {
        fed = await feed(copier);
      } finally {
        await copier.drain().catch(() => {});
      }
      await copier.drain();
      interrupted = Boolean(fed && fed.interrupted) || Boolean(stop && stop.aborted) || this.signal.aborted;
      complete = listed() && !interrupted;
      if (finish) await finish({ complete });
    } catch (err) {
      if (journal) journal.keep();
      throw describeS3Error(err, { bucket: this.dst.bucket });
    } finally {
      close();
    }
    if (journal) {
      if (complete) journal.complete(); else journal.keep();
    }
    return { complete, interrupted, journal: journal && !complete ? journal.file : null, ...copier.result() };
  }
}

module.exports = { CopyRun };
