/**
 * The decoded bytes one turn may read. A link's claimed `size` is reserved before its read (so a
 * 2 GiB claim is skipped unread); what a read really brought counts when it completes, kept or
 * not, and once the turn has read its budget no further read starts.
 */
export class TurnBudget {
  /** Bytes of reads kept (within the budget). */
  private kept = 0;
  /** Bytes of every read that completed, those discarded after it included. */
  private spent = 0;
  private reserved = 0;

  constructor(readonly limit: number) {}

  /** Bytes of the reads that were kept. */
  get used(): number {
    return this.kept;
  }

  private left(): number {
    return this.limit - this.spent - this.reserved;
  }

  /** Why a link claiming `claim` bytes cannot be taken on now, or undefined. */
  refuseClaim(claim: number): string | undefined {
    const left = this.left();
    if (claim <= left) return undefined;
    return `budget: the link declares ${claim} bytes, more than the ${Math.max(0, left)} left of this turn's budget of ${this.limit}`;
  }

  reserve(claim: number): void {
    this.reserved += claim;
  }

  release(claim: number): void {
    this.reserved -= claim;
  }

  /** Just before a read starts (its claim still reserved): why it must not, or undefined. */
  refuseStart(claim: number): string | undefined {
    if (this.spent >= this.limit)
      return `budget: this turn has read ${this.spent} bytes, its whole budget of ${this.limit}; not read`;
    const left = this.limit - this.spent - (this.reserved - claim);
    if (claim <= left) return undefined;
    return `budget: the link declares ${claim} bytes, more than the ${Math.max(0, left)} left of this turn's budget of ${this.limit}; not read`;
  }

  /** Counts a completed read, and says why it cannot be kept (over the budget), or undefined. */
  refuseRead(bytes: number): string | undefined {
    const left = this.limit - this.spent;
    this.spent += bytes;
    if (bytes <= left) {
      this.kept += bytes;
      return undefined;
    }
    return `budget: the read brought ${bytes} bytes, more than the ${Math.max(0, left)} left of this turn's budget of ${this.limit}`;
  }

  /** Counts bytes that were read and not kept: refused (MIME type, size), or a failure's error. */
  charge(bytes: number): void {
    this.spent += bytes;
  }
}
