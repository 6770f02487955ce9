/**
 * Which messages of the conversation this device holds without a gap (docs/protocol.md §35): the
 * watermark is the highest `seq` such that every seq from the lowest held up to it is held. A
 * resume asks for `afterSeq` = the watermark, never the highest seq seen: a message written out
 * of order (the send answer of seq 12 while 11 was missed during a cut) must not hide the gap.
 * Pure and synchronous; the socket feeds it every seq it stores.
 */
export class SeqTracker {
  private mark: number;
  /** Seqs held above the watermark, waiting for the gap below them to fill. */
  private readonly above = new Set<number>();

  /** Starts from the seqs already held (any order, duplicates allowed; none: watermark 0). */
  constructor(held: Iterable<number> = []) {
    const seqs = [...new Set(held)]
      .filter((seq) => Number.isSafeInteger(seq) && seq > 0)
      .sort((a, b) => a - b);
    const [lowest] = seqs;
    // Older history than the lowest held is paged back on demand; the run counts from there.
    this.mark = lowest === undefined ? 0 : lowest - 1;
    for (const seq of seqs) this.above.add(seq);
    this.advance();
  }

  /** The highest seq held with no gap below it (down to the lowest held): the resume's `afterSeq`. */
  get watermark(): number {
    return this.mark;
  }

  /** True when a seq above the watermark is held, i.e. something between is missing. */
  get hasGap(): boolean {
    return this.above.size > 0;
  }

  /**
   * Notes a held seq. Returns `duplicate` when it was held already (nothing to store twice),
   * `gap` when it lies past a missing one (the caller asks to resume from the watermark),
   * else `next`.
   */
  add(seq: number): 'next' | 'duplicate' | 'gap' {
    if (seq <= this.mark || this.above.has(seq)) return 'duplicate';
    this.above.add(seq);
    this.advance();
    return this.above.size > 0 ? 'gap' : 'next';
  }

  private advance(): void {
    while (this.above.has(this.mark + 1)) {
      this.mark += 1;
      this.above.delete(this.mark);
    }
  }
}
