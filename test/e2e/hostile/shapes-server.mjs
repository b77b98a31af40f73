// A 2026-07-28 stdio server whose answers have shapes that a renderer or a check must survive,
// for test/e2e/cli-hostile-shapes.test.ts. Plain Node. argv[2] picks the scenario:
//   null-prompt-argument      prompts/list: a prompt whose `arguments` holds null
//   many-required-arguments   prompts/list: one prompt with 200,000 required arguments
//   huge-prompt-content       prompts/get: one message whose content is 200,000 text blocks
//   many-findings             50,000 tools named alike, 50,000 resources named alike, 50,000
//                             templates that do not parse: 150,000 findings or so
//   many-sized-resources      200,000 resources listed with a size (8 MiB each, over --budget)
//   many-parts-templates      10,000 resources of 20 MiB and 10,000 parts templates, none of
//                             which covers any of them: 10^8 template matches to rule out
import { createInterface } from 'node:readline';

const scenario = process.argv[2];
const hints = { resultType: 'complete', ttlMs: 0, cacheScope: 'private' };
const N = 50_000;
const BIG = 200_000;

const empty = { 'tools/list': { tools: [] }, 'resources/list': { resources: [] } };
const scenarios = {
  'many-parts-templates': {
    'resources/list': {
      resources: Array.from({ length: 10_000 }, (_, i) => ({
        uri: `file:///r${i}`,
        name: `r${i}`,
        size: 20 * 1024 * 1024,
      })),
    },
    'resources/templates/list': {
      resourceTemplates: Array.from({ length: 10_000 }, (_, i) => ({
        uriTemplate: `file:///t${i}/{+path}{?offset,length}`,
        name: `t${i}`,
      })),
    },
  },
  'many-sized-resources': {
    'resources/list': {
      resources: Array.from({ length: BIG }, (_, i) => ({
        uri: `file:///r${i}`,
        name: `r${i}`,
        size: 8 * 1024 * 1024,
      })),
    },
    'resources/templates/list': { resourceTemplates: [] },
  },
  'null-prompt-argument': {
    'prompts/list': { prompts: [{ name: 'odd', arguments: [null, { name: 'x' }] }] },
    ...empty,
    'resources/templates/list': { resourceTemplates: [] },
  },
  'many-required-arguments': {
    'prompts/list': {
      prompts: [
        {
          name: 'wide',
          arguments: Array.from({ length: BIG }, (_, i) => ({ name: `a${i}`, required: true })),
        },
      ],
    },
    'prompts/get': { messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }] },
  },
  'huge-prompt-content': {
    'prompts/list': { prompts: [{ name: 'wide' }] },
    'prompts/get': {
      messages: [
        {
          role: 'user',
          content: Array.from({ length: BIG }, () => ({ type: 'text', text: '' })),
        },
      ],
    },
  },
  'many-findings': {
    'tools/list': {
      tools: Array.from({ length: N }, () => ({ name: 'same', inputSchema: { type: 'object' } })),
    },
    'resources/list': {
      resources: Array.from({ length: N }, () => ({ uri: 'file:///same', name: 'same' })),
    },
    'resources/templates/list': {
      resourceTemplates: Array.from({ length: N }, (_, i) => ({
        uriTemplate: `file:///${i}/{`,
        name: `t${i}`,
      })),
    },
    'resources/read': { contents: [{ uri: 'file:///same', mimeType: 'text/plain', text: 'x' }] },
  },
};

const answers = scenarios[scenario];
if (answers === undefined) throw new Error(`unknown scenario ${scenario}`);
const capabilities = {};
for (const method of Object.keys(answers)) capabilities[method.split('/')[0]] = {};

const send = (message) =>
  process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);

createInterface({ input: process.stdin }).on('line', (raw) => {
  const message = JSON.parse(raw);
  if (message.id === undefined || message.method === undefined) return;
  const result =
    message.method === 'server/discover'
      ? {
          supportedVersions: ['2026-07-28'],
          capabilities,
          serverInfo: { name: `shapes-${scenario}`, version: '0.0.0' },
        }
      : answers[message.method];
  if (result === undefined)
    send({ id: message.id, error: { code: -32601, message: 'method not found' } });
  else send({ id: message.id, result: { ...hints, ...result } });
});
