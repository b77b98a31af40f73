import { McpKitError } from '../errors/mcpkit-error.js';

export type ListKind = 'tools' | 'prompts' | 'resources';

/** An insertion-ordered registry that keeps its list snapshot until the next change. */
export class Registry<E, W = unknown> {
  private readonly entries = new Map<string, E>();
  private snapshot: E[] | undefined;
  private wireSnapshot: W[] | undefined;

  constructor(
    private readonly what: string,
    private readonly toWire: (entry: E) => W,
    private readonly onChange: () => void,
  ) {}

  add(key: string, entry: E): () => void {
    if (this.entries.has(key))
      throw new McpKitError(
        'DUPLICATE_REGISTRATION',
        `${this.what} "${key}" is already registered`,
      );
    this.entries.set(key, entry);
    this.changed();
    return () => {
      if (this.entries.get(key) === entry) {
        this.entries.delete(key);
        this.changed();
      }
    };
  }

  get(key: string): E | undefined {
    return this.entries.get(key);
  }

  /** The entries in registration order; the same array until something changes. */
  list(): readonly E[] {
    this.snapshot ??= [...this.entries.values()];
    return this.snapshot;
  }

  /** The wire objects (Tool, Prompt, …) in registration order, cached until something changes. */
  wire(): readonly W[] {
    this.wireSnapshot ??= this.list().map(this.toWire);
    return this.wireSnapshot;
  }

  private changed(): void {
    this.snapshot = undefined;
    this.wireSnapshot = undefined;
    this.onChange();
  }
}

/** The read side of a registry: what the engine may use. */
export type RegistryView<E, W> = Pick<Registry<E, W>, 'get' | 'list' | 'wire'>;
