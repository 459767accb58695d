import { describe, expect, it } from 'vitest';
import type { RequestRecord } from '../../../../shared/domain';
import { discordLiteral } from '../../../../main/notify/discord-channel';
import { decidedMessage, pictureFields } from '../../../../main/remote/discord-message';

const request = (over: Partial<RequestRecord>): RequestRecord =>
  ({ requestId: 'r1', status: 'pending', ...over }) as RequestRecord;

describe('Discord message text', () => {
  it('shows markdown, mentions and control characters an agent wrote literally', () => {
    expect(discordLiteral('[ok](https://x.example) @here **b** `c`')).toBe(
      '\\[ok\\]\\(https\\://x.example\\) \\@here \\*\\*b\\*\\* \\`c\\`',
    );
    expect(discordLiteral('a\nb\u001b[2J')).toBe('a\nb\u241b\\[2J');
  });

  it("lists the picture's files and push (commits, diffstat) as fields, each within 1024 characters", () => {
    const fields = pictureFields(
      request({
        picture: {
          files: [{ path: 'src/a_b.ts', kind: 'modify', added: 3, removed: 1 }],
          push: {
            remote: 'origin',
            branch: 'main',
            force: true,
            commits: Array.from({ length: 60 }, (_, i) => ({
              sha: `${i}`.padStart(40, 'a'),
              author: 'x',
              subject: `commit *${i}*`,
            })),
            commitCount: 60,
            diffstat: ' a.ts | 2 +-',
          },
        },
      }),
    );
    expect(fields[0]).toEqual({ name: 'Files', value: 'src/a\\_b.ts  +3 −1' });
    expect(fields[1]?.name).toBe('Push 60 commits (FORCE)');
    expect(fields[1]?.value.length).toBeLessThanOrEqual(1024);
    expect(fields[1]?.value).toContain('commit \\*0\\*');
    expect(pictureFields(request({}))).toEqual([]);
    expect(pictureFields(undefined)).toEqual([]);
  });

  it('a decided message keeps the embed, adds who decided, colours it and removes the buttons', () => {
    const posted = JSON.stringify({
      title: 't',
      description: 'd',
      fields: [{ name: 'Risk', value: 'high' }],
    });
    const body = decidedMessage(posted, request({ status: 'denied' }), 'Denied by @ada (1)');
    expect(body.components).toEqual([]);
    expect(body.allowed_mentions).toEqual({ parse: [] });
    expect(body.embeds?.[0]).toMatchObject({
      title: 't',
      description: 'd',
      color: 0xe74c3c,
      fields: [
        { name: 'Risk', value: 'high' },
        { name: 'Decided', value: 'Denied by \\@ada \\(1\\)' },
      ],
    });
    // An unreadable record still says what happened.
    expect(decidedMessage('{', request({ status: 'approved' }), 'ok').embeds?.[0]?.fields).toEqual([
      { name: 'Decided', value: 'ok' },
    ]);
  });
});
