import { describe, expect, it } from 'vitest';
import { parseTemplate } from '../uri/index.js';
import { Coverage, isPartsTemplate } from './audit-coverage.js';

describe('Coverage', () => {
  const coverage = new Coverage();
  coverage.addResource('file:///README.md');

  it('takes templates, and says why one does not parse', () => {
    expect(coverage.addTemplate('file:///{+path}{?offset,length,version}')).toBeUndefined();
    expect(coverage.addTemplate('docs://{name}')).toBeUndefined();
    expect(coverage.addTemplate('bad://{x')).toMatch(/unclosed/);
  });

  it('covers listed resources and template matches', () => {
    expect(coverage.coveredBy('file:///README.md')).toBe('a listed resource');
    expect(coverage.coveredBy('docs://intro')).toBe('the template "docs://{name}"');
    expect(coverage.coveredBy('file:///big.bin?offset=0&length=10')).toContain('{+path}');
    expect(coverage.coveredBy('other://x')).toBeUndefined();
  });

  it('knows a parts template', () => {
    expect(coverage.partsTemplateFor('file:///big.bin')).toBe(
      'file:///{+path}{?offset,length,version}',
    );
    expect(coverage.partsTemplateFor('docs://intro')).toBeUndefined();
    expect(isPartsTemplate(parseTemplate('x://{id}{&offset,length}'))).toBe(true);
    expect(isPartsTemplate(parseTemplate('x://{id}{?offset}'))).toBe(false);
    expect(isPartsTemplate(parseTemplate('x://{offset}/{length}'))).toBe(false);
  });

  it('names the first part of a resource through the parts template', () => {
    expect(coverage.firstPartUri('file:///docs/big%20one.bin', 1024)).toBe(
      'file:///docs/big%20one.bin?offset=0&length=1024',
    );
    expect(coverage.firstPartUri('docs://intro', 1024)).toBeUndefined();
  });

  it('stops matching at its budget of matches, and says so', () => {
    const small = new Coverage(3);
    for (let i = 0; i < 2; i++) small.addTemplate(`t${i}://{+path}{?offset,length}`);
    expect(small.partsTemplateFor('t1://x')).toBe('t1://{+path}{?offset,length}');
    expect(small.spentMessage()).toBeUndefined();
    // One match left: t0 is tried, t1 (which would match) is not.
    expect(small.coveredBy('t1://y')).toBeUndefined();
    expect(small.exhausted).toBe(true);
    expect(small.spentMessage()).toMatch(
      /^template matching stopped after 3 matches .*\(2 templates listed\)/,
    );
  });
});
