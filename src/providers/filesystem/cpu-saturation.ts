/**
 * Whether this process keeps every core busy. A read held by a hung file burns no CPU: when the
 * process's own threads use all the cores, slow reads are CPU-starved, and more read workers
 * would only add isolates (memory) and compete for the same cores.
 */
import { availableParallelism } from 'node:os';

/** Share of all cores the process must use to count as saturated. */
const SATURATED_SHARE = 0.85;
/** Shorter windows are too noisy to judge: the last verdict stands. */
const MIN_WINDOW_MS = 20;

export class CpuSaturation {
  private lastCpuMs: number;
  private lastWallMs: number;
  private verdict = false;

  constructor(
    private readonly cores = availableParallelism(),
    private readonly cpuMs = (): number => {
      const { user, system } = process.cpuUsage();
      return (user + system) / 1000;
    },
    private readonly wallMs = (): number => performance.now(),
  ) {
    this.lastCpuMs = this.cpuMs();
    this.lastWallMs = this.wallMs();
  }

  /** Whether the process used at least SATURATED_SHARE of every core since the last call. */
  saturated(): boolean {
    const cpu = this.cpuMs();
    const wall = this.wallMs();
    const window = wall - this.lastWallMs;
    if (window < MIN_WINDOW_MS) return this.verdict;
    this.verdict = (cpu - this.lastCpuMs) / window >= this.cores * SATURATED_SHARE;
    this.lastCpuMs = cpu;
    this.lastWallMs = wall;
    return this.verdict;
  }
}
