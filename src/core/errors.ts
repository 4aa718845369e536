/** An error meant for a person: bad usage, bad config, a bad file. The CLI prints its message and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A replay that does not reproduce: names the turn where it first differs. */
export class ReplayMismatchError extends Error {
  override name = 'ReplayMismatchError';
  constructor(
    message: string,
    /** the turn number where the replay first differs (null: the header or the end) */
    readonly turn: number | null,
  ) {
    super(message);
  }
}
