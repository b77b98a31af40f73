/**
 * The decoded bytes one turn may read. A link's claimed `size` is reserved before its read (so a
 * 2 GiB claim is skipped unread); what a read really brought is charged when it completes.
 */
export class TurnBudget {
  private committed = 0;
  private reserved = 0;

  constructor(readonly limit: number) {}

  /** Bytes charged so far (reads that completed within the budget). */
  get used(): number {
    return this.committed;
  }

  /** Why a link claiming `claim` bytes cannot be read now, or undefined. */
  refuseClaim(claim: number): string | undefined {
    const left = this.limit - this.committed - this.reserved;
    if (claim <= left) return undefined;
    return `budget: the link declares ${claim} bytes, more than the ${Math.max(0, left)} left of this turn's budget of ${this.limit}`;
  }

  reserve(claim: number): void {
    this.reserved += claim;
  }

  release(claim: number): void {
    this.reserved -= claim;
  }

  /** Charges a completed read, or says why it does not fit (nothing is charged then). */
  refuseRead(bytes: number): string | undefined {
    const left = this.limit - this.committed;
    if (bytes <= left) {
      this.committed += bytes;
      return undefined;
    }
    return `budget: the read brought ${bytes} bytes, more than the ${Math.max(0, left)} left of this turn's budget of ${this.limit}`;
  }
}
