import { describe, expect, it } from 'vitest';
import { envelopeOf } from '../../../../main/server/rpc-envelope';

describe('the JSON-RPC envelope check (every call, no schema)', () => {
  it('accepts a call, a notification, a null id and array params', () => {
    expect(envelopeOf({ jsonrpc: '2.0', id: 1, method: 'classify', params: {} })).toBeTruthy();
    expect(envelopeOf({ jsonrpc: '2.0', id: 'a', method: 'hello' })).toBeTruthy();
    expect(envelopeOf({ jsonrpc: '2.0', method: 'log', params: { type: 'x' } })).toBeTruthy();
    expect(envelopeOf({ jsonrpc: '2.0', id: null, method: 'x', params: [] })).toBeTruthy();
  });

  it('refuses anything else', () => {
    for (const bad of [
      null,
      'text',
      42,
      [],
      {},
      { jsonrpc: '1.0', id: 1, method: 'x' },
      { jsonrpc: 2, id: 1, method: 'x' },
      { jsonrpc: '2.0', id: 1 },
      { jsonrpc: '2.0', id: 1, method: '' },
      { jsonrpc: '2.0', id: 1, method: 7 },
      { jsonrpc: '2.0', id: {}, method: 'x' },
      { jsonrpc: '2.0', id: true, method: 'x' },
      { jsonrpc: '2.0', id: 1, method: 'x', params: 'p' },
      { jsonrpc: '2.0', id: 1, method: 'x', params: null },
      { jsonrpc: '2.0', id: 1, method: 'x', params: 3 },
    ])
      expect(envelopeOf(bad), JSON.stringify(bad)).toBeUndefined();
  });
});
