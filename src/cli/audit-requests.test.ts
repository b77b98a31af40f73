import { describe, expect, it } from 'vitest';
import { FindingLog } from './audit-findings.js';
import { LINK_READS, RequestBudget } from './audit-requests.js';

describe('RequestBudget', () => {
  it('allows requests up to the per-kind and total budgets, and counts what it refused', () => {
    const budget = new RequestBudget(5, 2);
    expect(budget.allow('resources/read', 'listed resource(s) not read', 'a')).toBe(true);
    expect(budget.allow('resources/read', 'listed resource(s) not read', 'b')).toBe(true);
    for (const uri of ['c', 'd', 'e', 'f'])
      expect(budget.allow('resources/read', 'listed resource(s) not read', uri)).toBe(false);
    expect(budget.allow('prompts/get', 'prompt(s) not got', 'p')).toBe(true);
    expect(budget.allow(LINK_READS, 'link(s) not read', 'l1')).toBe(true);
    expect(budget.allow(LINK_READS, 'link(s) not read', 'l2')).toBe(true);
    expect(budget.used).toBe(5);
    expect(budget.allow('tools/call', 'calls not made', 't')).toBe(false);
    expect(budget.spent).toBe(true);
    const log = new FindingLog();
    budget.report(log);
    expect(log.findings).toEqual([
      {
        severity: 'info',
        code: 'budget-spent',
        message:
          '4 listed resource(s) not read: the budget of 2 resources/read requests (--max-requests-per-kind) was spent: "c", "d", "e", …',
        method: 'resources/read',
      },
      {
        severity: 'info',
        code: 'budget-spent',
        message:
          '1 calls not made: the budget of 5 requests in all (--max-requests) was spent: "t"',
        method: 'tools/call',
      },
    ]);
  });

  it('reports nothing when nothing was skipped', () => {
    const budget = new RequestBudget(10, 10);
    expect(budget.allow('tools/list', 'x')).toBe(true);
    const log = new FindingLog();
    budget.report(log);
    expect(log.findings).toEqual([]);
    expect(budget.spent).toBe(false);
  });
});
