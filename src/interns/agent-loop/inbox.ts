/**
 * What reaches a run between its steps: steering inputs (delivered before the
 * next model call) and the answer to its open question or approval.
 */
export class Inbox {
  private readonly steers: string[] = [];
  private answer: string | undefined;
  private wake: (() => void) | undefined;

  steer(text: string): void {
    this.steers.push(text);
    this.notify();
  }

  /** The answer to the pending question/approval; a second one before it is read replaces the first. */
  answerWith(text: string): void {
    this.answer = text;
    this.notify();
  }

  drainSteers(): string[] {
    return this.steers.splice(0);
  }

  /** Resolves with the answer once there is one; undefined when the signal aborts first. */
  async nextAnswer(signal: AbortSignal): Promise<string | undefined> {
    while (this.answer === undefined) {
      if (signal.aborted) return undefined;
      await new Promise<void>((resolve) => {
        const done = () => {
          signal.removeEventListener('abort', done);
          this.wake = undefined;
          resolve();
        };
        this.wake = done;
        signal.addEventListener('abort', done, { once: true });
      });
    }
    const answer = this.answer;
    this.answer = undefined;
    return answer;
  }

  private notify(): void {
    this.wake?.();
  }
}
