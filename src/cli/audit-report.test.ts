import { describe, expect, it } from 'vitest';
import { FindingLog } from './audit-findings.js';
import { reportJson, reportText, type AuditReport } from './audit-report.js';

function report(): AuditReport {
  const log = new FindingLog();
  log.add({
    code: 'name-reused',
    message: 'two tools',
    method: 'tools/list',
    name: 'dup',
    path: '/tools/1',
  });
  log.add({
    code: 'uri-invalid',
    message: 'bad \x1b[31m',
    method: 'resources/list',
    uri: 'x:/\x1b[2J\u202e',
    path: '/resources/0/uri',
  });
  return {
    server: {
      target: 'node s.js',
      transport: 'stdio',
      era: '2026-07-28',
      serverInfo: { name: 'evil\x1b]0;t\x07', version: '1' },
    },
    complete: true,
    findings: [...log.findings],
    summary: log.summary(),
    walked: {
      tools: 2,
      prompts: 0,
      resources: 1,
      resourceTemplates: 0,
      reads: 1,
      bytesRead: 2048,
      links: 0,
      linksRead: 0,
      calls: 0,
      requests: 5,
    },
  };
}

describe('reportText', () => {
  it('groups by severity, errors first, and escapes what the server chose', () => {
    const text = reportText(report(), 'node s.js');
    expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
    expect(text).toBe(
      [
        'mcpkit audit: evil\\x1b]0;t\\x07 1 (2026-07-28, stdio: node s.js)',
        'walked: 2 tools, 0 prompts, 1 resource (1 read, 2.0 KiB), 0 templates, 0 links (0 read), 0 calls, 5 requests',
        '',
        'Errors (1)',
        '  uri-invalid  resources/list  x:/\\x1b[2J\\u202e',
        '               /resources/0/uri: bad \\x1b[31m',
        '',
        'Info (1)',
        '  name-reused  tools/list  "dup"',
        '               /tools/1: two tools',
        '',
        '1 error, 0 warnings, 1 info',
        '',
      ].join('\n'),
    );
  });

  it('says so when there is nothing to report', () => {
    const empty = { ...report(), findings: [], summary: { error: 0, warning: 0, info: 0 } };
    expect(reportText(empty, 'x')).toMatch(/\n\nno findings\n$/);
  });
});

describe('reportJson', () => {
  it('is one object: server, complete, findings, summary, walked', () => {
    const parsed = JSON.parse(reportJson(report())) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['server', 'complete', 'findings', 'summary', 'walked']);
    expect(parsed['summary']).toEqual({ error: 1, warning: 0, info: 1 });
    expect(parsed['complete']).toBe(true);
  });

  it('escapes C0/C1 controls, bidi and zero-width characters, BOM and soft hyphen as \\uXXXX, same value', () => {
    const hostile =
      'a\u009b31mb\u009d0;t\u0007c\u202ed\u200be\u2066f\ufeffg\u00adh\u2069\u200f\u202a\u0085';
    const r = report();
    r.server.serverInfo = { name: hostile, version: hostile };
    r.findings[0]!.name = hostile;
    const json = reportJson(r);
    expect(json).not.toMatch(
      /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u00ad\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/,
    );
    for (const code of ['009b', '009d', '202e', '200b', '2066', 'feff', '00ad', '0007'])
      expect(json).toContain(`\\u${code}`);
    const parsed = JSON.parse(json) as AuditReport;
    expect(parsed.server.serverInfo?.name).toBe(hostile);
    expect(parsed.findings[0]!.name).toBe(hostile);
  });
});

describe('an incomplete walk', () => {
  it('says so in the text form, naming the findings that tell what was skipped', () => {
    const log = new FindingLog();
    log.add({
      code: 'budget-spent',
      message: '3 listed resource(s) not read',
      method: 'resources/read',
    });
    const r = { ...report(), complete: false, findings: [...log.findings], summary: log.summary() };
    expect(reportText(r, 'x')).toContain(
      '\nincomplete: part of the server was not walked (see budget-spent)\n',
    );
    expect(reportText(report(), 'x')).not.toContain('incomplete');
  });
});
