/**
 * A module imported when first needed (the build makes it a chunk of its own), and what it is once
 * it has been: questions that must answer at once (is a panel open?) answer "none" before.
 */
export class LazyModule<T> {
  private loading: Promise<T> | undefined;
  /** The module, once imported. */
  loaded: T | undefined;

  constructor(private readonly importer: () => Promise<T>) {}

  load(): Promise<T> {
    return (this.loading ??= this.importer().then((module) => (this.loaded = module)));
  }
}
