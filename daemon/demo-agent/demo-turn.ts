/** One running prompt turn of the demo agent: pacing that wakes on cancel or steer, and the steer inbox. */

export class DemoTurn {
  cancelled = false;
  private readonly steers: string[] = [];
  private wake: (() => void) | null = null;

  cancel(): void {
    this.cancelled = true;
    this.wake?.();
  }

  steer(text: string): void {
    this.steers.push(text);
    this.wake?.();
  }

  takeSteers(): string[] {
    return this.steers.splice(0);
  }

  /** Waits `ms`, returning early when the turn is cancelled or steered. */
  pause(ms: number): Promise<void> {
    if (this.cancelled || this.steers.length) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake = done;
    });
  }

  /** Waits the full `ms` unless cancelled (steers are delivered but do not shorten it). */
  async sleep(ms: number, onSteer: () => Promise<void>): Promise<void> {
    const end = Date.now() + ms;
    while (!this.cancelled) {
      const left = end - Date.now();
      if (left <= 0) return;
      await this.pause(left);
      await onSteer();
    }
  }
}
