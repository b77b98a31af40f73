import { describe, expect, it } from 'vitest';
import { CpuSaturation } from './cpu-saturation.js';

describe('CpuSaturation', () => {
  it('is saturated when the process used at least 85% of every core since the last call', () => {
    let cpu = 0;
    let wall = 0;
    const meter = new CpuSaturation(
      2,
      () => cpu,
      () => wall,
    );
    wall += 100;
    cpu += 170; // 1.7 of 2 cores
    expect(meter.saturated()).toBe(true);
    wall += 100;
    cpu += 169;
    expect(meter.saturated()).toBe(false);
    wall += 100;
    cpu += 100; // one core of two: a hung read elsewhere, not starvation
    expect(meter.saturated()).toBe(false);
  });

  it('keeps its last verdict for windows too short to judge', () => {
    let cpu = 0;
    let wall = 0;
    const meter = new CpuSaturation(
      1,
      () => cpu,
      () => wall,
    );
    wall += 50;
    cpu += 50;
    expect(meter.saturated()).toBe(true);
    wall += 5; // idle, but only 5 ms
    expect(meter.saturated()).toBe(true);
    wall += 50;
    expect(meter.saturated()).toBe(false);
  });
});
