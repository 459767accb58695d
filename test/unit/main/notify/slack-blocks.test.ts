import { describe, expect, it } from 'vitest';
import {
  decidedBlocks,
  fallbackText,
  PICTURE_BLOCK_ID,
  withPicture,
  pictureSummary,
  requestBlocks,
  slackEscape,
} from '../../../../main/notify/slack-blocks';
import type { SlackButton } from '../../../../main/notify/slack-api';
import type { OutgoingNotification } from '../../../../main/notify/types';

const approve: SlackButton = {
  type: 'button',
  text: { type: 'plain_text', text: 'Approve' },
  action_id: 'gatehouse-approve',
  value: 'x',
};

function notification(description: string): OutgoingNotification {
  return {
    id: 'n1',
    urgency: 'high',
    title: `agent wants to deploy: ${description}`,
    body: description,
    requestId: 'req-1',
    items: [
      {
        kind: 'request',
        urgency: 'high',
        title: 'agent wants to deploy',
        body: description,
        at: '2026-01-01T00:00:00.000Z',
        requestId: 'req-1',
        agent: 'agent',
        project: 'shop',
        risk: 'high',
        facts: { what: description, action: 'deploy', command: 'make deploy' },
      },
    ],
  };
}

describe('Slack blocks', () => {
  it('keeps every text under Block Kit’s limits, in plain_text, with the buttons last', () => {
    const blocks = requestBlocks(notification('x'.repeat(10_000)), {
      buttons: [approve],
      picture: ['a +1 −0'],
    });
    const header = blocks[0]!;
    expect(header.type === 'header' && header.text.text.length).toBeLessThanOrEqual(150);
    for (const b of blocks)
      if (b.type === 'section') {
        expect((b.text?.text ?? '').length).toBeLessThanOrEqual(3000);
        expect([b.text, ...(b.fields ?? [])].every((t) => !t || t.type === 'plain_text')).toBe(
          true,
        );
      }
    expect(blocks.at(-1)).toMatchObject({ type: 'actions', elements: [approve] });
    expect(JSON.stringify(blocks)).toContain('Project: shop');
    expect(JSON.stringify(blocks)).toContain('Risk: high');
  });

  it('escapes what Slack reads as markup in the fallback text: no @channel, mention or link', () => {
    expect(slackEscape('<!channel> <@U1> a & b <https://x|y>')).toBe(
      '&lt;!channel&gt; &lt;@U1&gt; a &amp; b &lt;https://x|y&gt;',
    );
    expect(fallbackText(notification('<!here>'))).not.toContain('<!here>');
    expect(fallbackText(notification('y'.repeat(9000))).length).toBeLessThanOrEqual(4000);
  });

  it('sums a push up: five commits, how many more, the diffstat, and control characters made visible', () => {
    const lines = pictureSummary({
      push: {
        remote: 'origin',
        branch: 'main',
        force: true,
        commits: Array.from({ length: 8 }, (_, i) => ({
          sha: `${i}`.repeat(40),
          author: 'ann',
          subject: i === 0 ? 'evil\u001b[2Jsubject' : `commit ${i}`,
        })),
        commitCount: 8,
        diffstat: ' a.ts | 2 +-\n 1 file changed',
      },
      files: [{ path: 'src/a.ts', kind: 'modify', added: 3, removed: 1 }],
    });
    expect(lines[0]).toBe('src/a.ts  +3 −1');
    expect(lines[1]).toBe('Push main to origin (FORCE): 8 commits');
    expect(lines.filter((l) => l.startsWith('  ') && l.includes('(ann)'))).toHaveLength(5);
    expect(lines).toContain('  … and 3 more');
    expect(lines).toContain(' 1 file changed');
    expect(lines.join('\n')).not.toContain('\u001b');
    expect(pictureSummary(undefined)).toEqual([]);
  });

  it('once decided, the buttons go and a line says who decided', () => {
    const blocks = requestBlocks(notification('deploy'), { buttons: [approve], picture: [] });
    const decided = decidedBlocks(blocks, 'Approved by @ada');
    expect(decided.some((b) => b.type === 'actions')).toBe(false);
    expect(decided.at(-1)).toEqual({
      type: 'context',
      elements: [{ type: 'plain_text', text: 'Approved by @ada' }],
    });
  });

  it('a picture computed after the post goes before the buttons, once', () => {
    const blocks = requestBlocks(notification('deploy'), { buttons: [approve], picture: [] });
    const added = withPicture(blocks, ['src/a.ts  +1 −0'])!;
    expect(added).toHaveLength(blocks.length + 1);
    expect(added.at(-2)).toMatchObject({ type: 'section', block_id: PICTURE_BLOCK_ID });
    expect(added.at(-1)).toMatchObject({ type: 'actions' });
    expect(withPicture(added, ['src/a.ts  +1 −0'])).toBeUndefined();
    expect(withPicture(blocks, [])).toBeUndefined();
  });
});
