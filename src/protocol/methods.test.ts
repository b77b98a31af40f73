import { describe, expect, it } from 'vitest';
import modernSchema from './schema/schema-2026-07-28.json' with { type: 'json' };
import legacySchema from './schema/schema-2025-11-25.json' with { type: 'json' };
import {
  defsOf,
  isCacheable,
  isModernOnly,
  listFieldOf,
  mayRequireInput,
  METHOD_FACTS,
  methodFacts,
  nameFieldOf,
} from './methods.js';

const DEFS = {
  modern: (modernSchema as { $defs: Record<string, unknown> }).$defs,
  legacy: (legacySchema as { $defs: Record<string, unknown> }).$defs,
};

describe('METHOD_FACTS', () => {
  it.each(['modern', 'legacy'] as const)('names only $defs that the %s schema has', (era) => {
    for (const part of ['params', 'result'] as const) {
      for (const [method, def] of Object.entries(defsOf(era, part))) {
        expect(DEFS[era], `${method} ${part}`).toHaveProperty([def]);
      }
    }
  });

  it('gives each request the method its schema fixes', () => {
    // A request def `XRequest` carries `method: { const }`; its params def is `XRequestParams`
    // or a shared one: the table's params must be what that request's `params` refers to.
    let checked = 0;
    for (const era of ['modern', 'legacy'] as const) {
      for (const def of Object.values(DEFS[era]) as Array<Record<string, unknown>>) {
        const props = def['properties'] as Record<string, Record<string, unknown>> | undefined;
        const method = props?.['method']?.['const'];
        const ref = props?.['params']?.['$ref'];
        if (typeof method !== 'string' || typeof ref !== 'string') continue;
        const facts = methodFacts(method);
        if (!facts?.params[era]) continue; // one the server sends, not one it answers
        expect(ref, `${era} ${method}`).toBe(`#/$defs/${facts.params[era]}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThanOrEqual(20);
  });

  it('says which methods are 2026-07-28 only, cached, named and may ask for input', () => {
    const methods = Object.keys(METHOD_FACTS);
    expect(methods.filter(isModernOnly).sort()).toEqual([
      'server/discover',
      'subscriptions/listen',
    ]);
    expect(methods.filter(isCacheable).sort()).toEqual([
      'prompts/list',
      'resources/list',
      'resources/read',
      'resources/templates/list',
      'server/discover',
      'tools/list',
    ]);
    expect(methods.filter(mayRequireInput).sort()).toEqual([
      'prompts/get',
      'resources/read',
      'tools/call',
    ]);
    expect(nameFieldOf('resources/read')).toBe('uri');
    expect(nameFieldOf('tools/call')).toBe('name');
    expect(nameFieldOf('tools/list')).toBeUndefined();
    expect(listFieldOf('resources/templates/list')).toBe('resourceTemplates');
  });

  it('never answers for names of Object.prototype (they come from peers)', () => {
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect(methodFacts(name)).toBeUndefined();
      expect(isCacheable(name)).toBe(false);
      expect(nameFieldOf(name)).toBeUndefined();
    }
  });
});
