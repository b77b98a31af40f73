import { describe, expect, it } from 'vitest';
import { requestEra, type EraClues } from './era.js';

const PV = 'io.modelcontextprotocol/protocolVersion';
const withVersion = { _meta: { [PV]: '2026-07-28' } };

type Row = [string, Partial<EraClues>, 'modern' | 'legacy'];

describe('requestEra', () => {
  it.each<Row>([
    // _meta.protocolVersion marks 2026-07-28, whatever else is said.
    ['_meta.protocolVersion alone', { params: withVersion }, 'modern'],
    ['_meta.protocolVersion in a session', { params: withVersion, inSession: true }, 'modern'],
    [
      '_meta.protocolVersion on initialize',
      { method: 'initialize', params: withVersion },
      'modern',
    ],
    [
      '_meta.protocolVersion with a 2025 header',
      { params: withVersion, headerVersion: '2025-11-25', inSession: true },
      'modern',
    ],
    [
      '_meta.protocolVersion of any value',
      { params: { _meta: { [PV]: 7 } }, inSession: true },
      'modern',
    ],
    // Headers: a 2025 revision says nothing by itself; anything else means 2026-07-28.
    [
      'a 2025-11-25 header in a session',
      { headerVersion: '2025-11-25', inSession: true },
      'legacy',
    ],
    [
      'a 2024-11-05 header on initialize',
      { method: 'initialize', headerVersion: '2024-11-05' },
      'legacy',
    ],
    ['a 2025-06-18 header, no session', { headerVersion: '2025-06-18' }, 'modern'],
    [
      'a 2026-07-28 header in a session',
      { headerVersion: '2026-07-28', inSession: true },
      'modern',
    ],
    ['an unknown header in a session', { headerVersion: 'v999', inSession: true }, 'modern'],
    ['an unknown header on initialize', { method: 'initialize', headerVersion: 'v999' }, 'modern'],
    ['an empty header in a session', { headerVersion: '', inSession: true }, 'modern'],
    [
      'a padded 2025 header in a session',
      { headerVersion: ' 2025-11-25 ', inSession: true },
      'legacy',
    ],
    [
      'a padded unknown header in a session',
      { headerVersion: '  v9  ', inSession: true },
      'modern',
    ],
    ['a null header in a session', { headerVersion: null, inSession: true }, 'legacy'],
    // Without either: initialize or a session is 2025-11-25, nothing at all is 2026-07-28.
    ['initialize', { method: 'initialize' }, 'legacy'],
    ['initialize with an empty _meta', { method: 'initialize', params: { _meta: {} } }, 'legacy'],
    ['a request in a session', { inSession: true }, 'legacy'],
    ['nothing', {}, 'modern'],
    ['params without _meta', { params: { name: 'x' } }, 'modern'],
    // _meta that is not an object is ignored.
    ['an array _meta in a session', { params: { _meta: [PV] }, inSession: true }, 'legacy'],
    ['a null _meta in a session', { params: { _meta: null }, inSession: true }, 'legacy'],
    ['a string _meta in a session', { params: { _meta: PV }, inSession: true }, 'legacy'],
    ['array params in a session', { params: [withVersion], inSession: true }, 'legacy'],
    [
      'a _meta with other keys in a session',
      { params: { _meta: { x: 1 } }, inSession: true },
      'legacy',
    ],
  ])('%s -> %s', (_what, clues, era) => {
    expect(
      requestEra({ method: 'tools/list', params: undefined, inSession: false, ...clues }),
    ).toBe(era);
  });
});
