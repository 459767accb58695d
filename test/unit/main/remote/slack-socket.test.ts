import { describe, expect, it } from 'vitest';
import { socketUrlAllowed } from '../../../../main/remote/slack-socket';

describe('Slack Socket Mode: which URL Gatehouse connects to', () => {
  it('connects to wss: only, or ws: when the Web API is itself plain HTTP (a test server)', () => {
    const slack = 'https://slack.com/api';
    expect(socketUrlAllowed('wss://wss-primary.slack.com/link/?ticket=1&app_id=A1', slack)).toBe(
      true,
    );
    // A Web API answer (or a proxy on the way) naming an unencrypted socket is refused.
    expect(socketUrlAllowed('ws://wss-primary.slack.com/link/?ticket=1', slack)).toBe(false);
    expect(socketUrlAllowed('http://evil.example/link', slack)).toBe(false);
    expect(socketUrlAllowed('not a url', slack)).toBe(false);
    expect(socketUrlAllowed('ws://127.0.0.1:9/link/?ticket=1', 'http://127.0.0.1:9/api')).toBe(
      true,
    );
  });
});
