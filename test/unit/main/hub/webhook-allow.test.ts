import { describe, expect, it } from 'vitest';
import { isSpecialAddress, WebhookAllow } from '../../../../main/hub/webhook-allow';
import { WebhookAllowList } from '../../../../shared/node/webhook-allow-entry';

describe('webhook allow-list', () => {
  it('calls loopback, private, link-local and their IPv6 and mapped forms special', () => {
    for (const a of [
      '127.0.0.1',
      '127.8.9.10',
      '10.1.2.3',
      '172.20.0.1',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '::',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:a9fe:a9fe',
      'fe80::1',
      'fd00::1',
      '64:ff9b::7f00:1',
      '224.0.0.1',
    ])
      expect(isSpecialAddress(a), a).toBe(true);
    for (const a of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])
      expect(isSpecialAddress(a), a).toBe(false);
  });

  it('with an empty list, any name passes and only public addresses', () => {
    const allow = new WebhookAllow([]);
    const url = new URL('https://hooks.example.com/x');
    expect(allow.refuseUrl(url.href)).toBeUndefined();
    expect(allow.refuseAddress(url, '93.184.216.34')).toBeUndefined();
    expect(allow.refuseAddress(url, '127.0.0.1')).toMatch(/allow-list does not allow/);
    expect(allow.refuseAddress(new URL('http://127.0.0.1:80/'), '127.0.0.1')).toBeDefined();
    expect(allow.refuseUrl('ftp://example.com/')).toBe('not an http(s) URL');
  });

  it('names restrict the URL; a pattern allows public addresses only', () => {
    const allow = new WebhookAllow(['http://127.0.0.1:9000', '*.example.com', 'hooks.corp']);
    expect(allow.refuseUrl('http://127.0.0.1:9000/x')).toBeUndefined();
    expect(allow.refuseUrl('http://127.0.0.1:9001/x')).toMatch(/not on the hub's webhook/);
    expect(allow.refuseUrl('https://127.0.0.1:9000/x')).toBeDefined();
    expect(allow.refuseUrl('http://localhost:9000/x')).toBeDefined();
    expect(allow.refuseUrl('https://a.example.com/')).toBeUndefined();
    expect(allow.refuseUrl('https://example.com/')).toBeDefined();
    expect(allow.refuseUrl('https://evilexample.com/')).toBeDefined();
    expect(allow.refuseUrl('http://hooks.corp:8080/')).toBeUndefined();
    // The exactly named origin and host may be private; a pattern's names may not.
    expect(allow.refuseAddress(new URL('http://127.0.0.1:9000/x'), '127.0.0.1')).toBeUndefined();
    expect(allow.refuseAddress(new URL('http://hooks.corp:8080/'), '10.0.0.7')).toBeUndefined();
    expect(allow.refuseAddress(new URL('https://a.example.com/'), '127.0.0.1')).toBeDefined();
    expect(allow.refuseAddress(new URL('https://a.example.com/'), '8.8.8.8')).toBeUndefined();
  });

  it('listed ranges let those addresses through for any name that passes', () => {
    const allow = new WebhookAllow(['10.0.0.0/8', 'fd00::/8']);
    const url = new URL('https://hooks.internal/');
    expect(allow.refuseUrl(url.href)).toBeUndefined();
    expect(allow.refuseAddress(url, '10.9.8.7')).toBeUndefined();
    expect(allow.refuseAddress(url, 'fd12::1')).toBeUndefined();
    expect(allow.refuseAddress(url, '127.0.0.1')).toBeDefined();
    expect(allow.refuseAddress(url, '169.254.169.254')).toBeDefined();
  });

  it('checks the entries it is given', () => {
    expect(
      WebhookAllowList.safeParse(['https://a.example.com', '*.b.com', 'c.d', '10.0.0.0/8', '::1'])
        .success,
    ).toBe(true);
    for (const bad of [
      'https://a.com/path',
      'https://u:p@a.com',
      '*.com',
      '10.0.0.0/33',
      'a b',
      '',
    ])
      expect(WebhookAllowList.safeParse([bad]).success, bad).toBe(false);
  });
});
