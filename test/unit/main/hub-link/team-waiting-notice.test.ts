import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { teamWaitingNotice } from '../../../../main/hub-link/team-waiting-notice';
import { NotifySendDesktop } from '../../../../main/notify/notify-send-desktop';
import { HubToMachine } from '../../../../shared/hub-protocol';

const LINK = 'https://hub.example/decide?machine=build-a&request=r1&decision=open&sig=abc';

describe('the desktop notice of a team request', () => {
  it('names the machine, keeps the text on one plain line and carries the hub’s page', () => {
    const n = teamWaitingNotice({
      t: 'team_waiting',
      requestId: 'r1',
      machine: 'build-a',
      title: 'builder wants to deploy\nApprove here: <a href="x">now</a>\u0007',
      urgency: 'high',
      link: LINK,
    });
    expect(n.title).toBe(
      'build-a: builder wants to deploy Approve here: <a href="x">now</a>⟨U+0007⟩',
    );
    expect(n.body).toBe(`Waiting on build-a. Approve or deny it on the hub: ${LINK}`);
    expect(n).toMatchObject({ urgency: 'high', url: LINK });
    // Not a local request: nothing on the machine decides it.
    expect(n.requestId).toBeUndefined();
  });

  it('shows a right-to-left override or a zero-width space in the title as its code point', () => {
    const n = teamWaitingNotice({
      t: 'team_waiting',
      requestId: 'r1',
      machine: 'build\u200b-a',
      title: 'builder wants to run git status\u202e ecrof-- hsup tig',
      urgency: 'normal',
      link: LINK,
    });
    expect(n.title).toBe(
      'build⟨U+200B⟩-a: builder wants to run git status⟨U+202E⟩ ecrof-- hsup tig',
    );
    expect(n.body).toBe(`Waiting on build⟨U+200B⟩-a. Approve or deny it on the hub: ${LINK}`);
  });

  it('is refused from the hub unless the link is an http(s) URL', () => {
    const message = {
      t: 'team_waiting',
      requestId: 'r1',
      machine: 'build-a',
      title: 't',
      urgency: 'normal',
    };
    expect(HubToMachine.safeParse({ ...message, link: LINK }).success).toBe(true);
    for (const link of ['javascript:alert(1)', 'file:///etc/passwd', 'https://a b'])
      expect(HubToMachine.safeParse({ ...message, link }).success).toBe(false);
  });

  it('opens the page when the notice’s body is clicked (notify-send), with no Approve button', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'gatehouse-notify-send-'));
    try {
      // notify-send as the spec has it: prints the notice's id, then the action invoked.
      const script = join(dir, 'notify-send');
      writeFileSync(
        script,
        `#!/bin/sh\necho "$@" > ${JSON.stringify(join(dir, 'args'))}\necho 7\necho default\n`,
      );
      chmodSync(script, 0o755);
      const opened: string[] = [];
      const d = new NotifySendDesktop({
        command: [script],
        onAction: (id, action) => opened.push(`${action} ${id}`),
        onOpenUrl: (url) => opened.push(url),
      });
      await d.show(
        teamWaitingNotice({
          t: 'team_waiting',
          requestId: 'r1',
          machine: 'build-a',
          title: 'builder wants to deploy',
          urgency: 'normal',
          link: LINK,
        }),
      );
      await expect.poll(() => opened).toEqual([LINK]);
      const args = readFileSync(join(dir, 'args'), 'utf8');
      expect(args).not.toContain('--action=approve');
      // The body is markup to the server: the link's & is escaped.
      expect(args).toContain('machine=build-a&amp;request=r1');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
