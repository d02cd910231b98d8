// Group commit. A transaction costs far more than the few rows a webhook delivery writes (on
// SQLite, one writer at a time; on PostgreSQL, the round trips and the web process's CPU), so a
// burst (Shopify sends hundreds a second on a flash sale) acknowledged one transaction each queues
// up until Shopify's 5-second timeout. Items that arrive while a batch is being written wait for
// the next one, which takes all of them: no timer and no added wait when they come one by one,
// bigger batches when they pile up. A batch is all or nothing; when it fails, each of its items is
// written alone, so one failing item fails only itself.

const MAX_BATCH = 100;

export type GroupCommitWriters<I, O> = {
  /** Writes the items in one transaction: an outcome for each, in order. */
  readonly writeBatch: (items: readonly I[]) => Promise<O[]>;
  /** Writes one item after its batch failed (default: a batch of one). */
  readonly writeAlone?: (item: I) => Promise<O>;
  /** Whether a lone item goes the batch's way (default); else it is written alone. */
  readonly batchOne?: boolean;
};

type Pending<I, O> = { readonly item: I; readonly settle: (outcome: Promise<O>) => void };

/** A function writing each item it is given with those that arrive with it. */
export function createGroupCommit<I, O>(writers: GroupCommitWriters<I, O>): (item: I) => Promise<O> {
  const { writeBatch, batchOne = true } = writers;
  const writeAlone = writers.writeAlone ?? ((item: I) => writeBatch([item]).then((outcomes) => outcomes[0] as O));
  let waiting: Pending<I, O>[] = [];
  let writing = false;
  const drain = async () => {
    writing = true;
    try {
      while (waiting.length > 0) {
        const batch = waiting.slice(0, MAX_BATCH);
        waiting = waiting.slice(MAX_BATCH);
        if (batch.length > 1 || batchOne) {
          const attempt = writeBatch(batch.map((pending) => pending.item));
          const outcomes = await attempt.catch(() => undefined);
          if (outcomes) {
            batch.forEach((pending, i) => pending.settle(Promise.resolve(outcomes[i] as O)));
            continue;
          }
          // An item that was alone in its batch failed on its own: writing it alone again would
          // only run its effect twice.
          const [only] = batch;
          if (only && batch.length === 1) {
            only.settle(attempt.then((alone) => alone[0] as O));
            continue;
          }
        }
        for (const pending of batch) {
          const outcome = writeAlone(pending.item);
          pending.settle(outcome);
          await outcome.catch(() => {}); // its caller sees the failure; the next one is written after it
        }
      }
    } finally {
      writing = false;
    }
  };
  return (item: I) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, settle: (outcome) => outcome.then(resolve, reject) });
      if (!writing) void drain();
    });
}
