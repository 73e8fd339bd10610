// One place that remembers what a script started and tears it down in reverse order: on success, on
// failure and on Ctrl-C / SIGTERM, so no code-server, browser or test server outlives the script.

type Teardown = () => Promise<void> | void;

export class Cleanup {
  private readonly steps: { name: string; run: Teardown }[] = [];
  private running: Promise<void> | undefined;

  add(name: string, run: Teardown): void {
    this.steps.push({ name, run });
  }

  /** Runs every registered step once, newest first; a failing step does not stop the others. */
  runAll(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps.reverse()) {
        try {
          await step.run();
        } catch (error) {
          console.error(`[cleanup] ${step.name}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
      this.steps.length = 0;
    })();
    return this.running;
  }

  /**
   * Ctrl-C and SIGTERM stop everything first, then exit with `exitCode` (default: the conventional
   * 128+signal, i.e. an interrupted test run is a failed one).
   */
  handleSignals(exitCode?: number): void {
    let stopping = false;
    const onSignal = (signal: NodeJS.Signals, code: number) => {
      // A second Ctrl-C while stopping is ignored: exiting now would orphan what is not stopped yet.
      if (stopping) return;
      stopping = true;
      console.error(`\n[cleanup] ${signal}: stopping everything`);
      void this.runAll().finally(() => process.exit(exitCode ?? code));
    };
    process.on('SIGINT', () => onSignal('SIGINT', 130));
    process.on('SIGTERM', () => onSignal('SIGTERM', 143));
  }
}
