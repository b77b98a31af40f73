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
        'walked: 2 tools, 0 prompts, 1 resource (1 read, 2.0 KiB), 0 templates, 0 links (0 read), 0 calls',
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
  it('is one object: server, findings, summary, walked', () => {
    const parsed = JSON.parse(reportJson(report())) as Record<string, unknown>;
    expect(Object.keys(parsed)).toEqual(['server', 'findings', 'summary', 'walked']);
    expect(parsed['summary']).toEqual({ error: 1, warning: 0, info: 1 });
  });
});
