import type { Contests } from './service.js';

/** How the contest runner looks at the contests. */
export interface RunnerOptions {
  /** how often it looks when nothing wakes it, ms (default 1000) */
  everyMs?: number;
  log: { error(o: object, msg: string): void; debug(o: object, msg: string): void; info(msg: string): void };
}

/**
 * The contests' runner, on the server's clock (as the ladder's scheduler is): every `everyMs`, and when a
 * match ends (`wake`), it freezes the contests whose entry window closed, finishes a freeze a crash cut off,
 * and advances each running final (creates the planned matches not created yet, marks it done when the plan
 * says so). It keeps nothing the store does not have: a server killed at any point, started again (or another
 * server on the same store), carries on where the store says the contests are; each planned match is created
 * once (its plan key is unique in its contest), so servers looking at once create nothing twice.
 */
export class ContestRunner {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopping = false;
  private failing: string | null = null;

  constructor(
    private readonly contests: Contests,
    private readonly opts: RunnerOptions,
  ) {}

  start(): void {
    this.schedule(0);
  }

  /** A match ended: a final may have a next step. */
  wake(): void {
    if (this.running) this.again = true;
    else this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopping) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.contests
        .tick()
        .then(
          () => {
            if (this.failing !== null) this.opts.log.info(`the contests' runner runs again (it had failed: ${this.failing})`);
            this.failing = null;
          },
          (err: unknown) => {
            const message = err instanceof Error ? err.message : String(err);
            if (message === this.failing) this.opts.log.debug({ err }, "the contests' runner still fails; trying again");
            else this.opts.log.error({ err }, `the contests' runner failed (${message}); trying again (the same failure again is logged at debug)`);
            this.failing = message;
          },
        )
        .finally(() => {
          this.running = null;
          const again = this.again;
          this.again = false;
          this.schedule(again ? 0 : (this.opts.everyMs ?? 1000));
        });
    }, delayMs);
    this.timer.unref();
  }
}
