/**
 * The listeners of one kind of event: `on` adds one and returns its remover; `emit` calls each in
 * the order added, and one that throws is reported to `onThrow` and never stops the rest.
 */
export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  constructor(private readonly onThrow: (error: unknown) => void) {}

  on(listener: (value: T) => void): () => void {
    // One registration, one entry: the same function added twice is called twice, and each
    // remover takes off its own registration only.
    const entry = (value: T): void => listener(value);
    this.listeners.add(entry);
    return () => void this.listeners.delete(entry);
  }

  emit(value: T): void {
    for (const listener of this.listeners) {
      try {
        listener(value);
      } catch (error) {
        this.onThrow(error);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
