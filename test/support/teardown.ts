/**
 * What a fixture started, stopped in the reverse order: the browser before the daemon it
 * watches, the daemon before the hub it joined. Every step runs even when one fails (the
 * first failure is thrown after), so a failed start or stop leaves no process behind.
 */
export class Teardown {
  private readonly steps: (() => unknown)[] = [];

  add(step: () => unknown): void {
    this.steps.push(step);
  }

  async run(): Promise<void> {
    let failure: unknown;
    for (const step of this.steps.splice(0).reverse()) {
      try {
        await step();
      } catch (error) {
        failure ??= error;
      }
    }
    if (failure !== undefined) throw failure;
  }
}
