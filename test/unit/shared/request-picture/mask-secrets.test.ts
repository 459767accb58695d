import { describe, expect, it } from 'vitest';
import { maskSecrets } from '../../../../shared/request-picture/mask-secrets';
import { pictureLines, visible } from '../../../../shared/request-picture/picture-text';

describe('secret masking in a picture', () => {
  it('hides token shapes, assignments and private keys, and keeps the lines that hold them', () => {
    const text = [
      '+AWS_KEY=AKIAABCDEFGHIJKLMNOP',
      '+password: "hunter2hunter2"',
      '+const slack = "xoxb-1234567890-abcdefghij";',
      '+-----BEGIN OPENSSH PRIVATE KEY-----',
      '+b3BlbnNzaC1rZXktdjEAAAAA',
      '+-----END OPENSSH PRIVATE KEY-----',
      '+const total = price * quantity;',
    ].join('\n');
    const masked = maskSecrets(text);
    expect(masked).not.toMatch(/ABCDEFGHIJKLMNOP|hunter2hunter2|1234567890-abc|b3BlbnNzaC1r/);
    expect(masked).toContain('+AWS_KEY=AKIA…[masked]');
    expect(masked).toContain('+password: "hunt…[masked]"');
    // Ordinary code is untouched, and every line is still there.
    expect(masked).toContain('+const total = price * quantity;');
    expect(masked.split('\n').length).toBeGreaterThanOrEqual(5);
  });
});

describe('picture as text', () => {
  it('shows control characters from the agent as visible symbols', () => {
    expect(visible('ok\x1b[2J\x07\ttab\x9b')).toBe('ok␛[2J␇\ttab\ufffd');
    const lines = pictureLines({
      files: [
        { path: '/p/a\x1b]0;x\x07.ts', kind: 'modify', added: 1, removed: 0, diff: '+\x1b[31mred' },
      ],
    });
    expect(lines.join('\n')).not.toContain('\x1b');
    expect(lines.join('\n')).not.toContain('\x07');
    expect(lines).toContain('+␛[31mred');
  });

  it('writes the push, its commits and what was left out', () => {
    const lines = pictureLines({
      push: {
        remote: 'origin',
        url: 'git@example.com:shop.git',
        branch: 'main',
        force: true,
        commitCount: 120,
        commits: [{ sha: '0123456789abcdef', author: 'Ann', subject: 'Add refunds' }],
        omitted: '119 older commits not listed',
      },
    });
    expect(lines).toEqual([
      '',
      'Push main to origin (git@example.com:shop.git)  FORCE',
      '120 commits the remote lacks:',
      '  0123456789 Add refunds (Ann)',
      '[left out: 119 older commits not listed]',
    ]);
  });
});
