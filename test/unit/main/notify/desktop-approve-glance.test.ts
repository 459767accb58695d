import { describe, expect, it } from 'vitest';
import { DesktopChannel, DESKTOP_APPROVE_MAX_CHARS } from '../../../../main/notify/desktop-channel';
import { newRequestItem } from '../../../../main/notify/compose';
import type { DesktopNotice } from '../../../../main/notify/desktop-port';
import type { OutgoingNotification } from '../../../../main/notify/types';
import { makeRequest } from '../../../support/notify-fixtures';

/**
 * A desktop notice shows two or three lines before it is opened: it offers Approve only on a
 * request whose command (or target) a person sees there whole; Deny and the click stay.
 */
describe('the desktop notice offers Approve at a glance only', () => {
  async function shown(command: string): Promise<DesktopNotice> {
    const notices: DesktopNotice[] = [];
    const channel = new DesktopChannel({ show: async (n) => void notices.push(n) });
    const request = makeRequest({ command });
    const item = newRequestItem(request);
    const n: OutgoingNotification = {
      id: 'n1',
      urgency: item.urgency,
      title: item.title,
      body: item.body,
      items: [item],
      requestId: request.requestId,
    };
    await channel.send(n);
    return notices[0]!;
  }

  it('on a short command', async () => {
    expect((await shown('npm test')).approve).toBe(true);
    expect((await shown(`echo ${'a'.repeat(DESKTOP_APPROVE_MAX_CHARS - 5)}`)).approve).toBe(true);
  });

  it('not on a command longer than a glance, nor on one cut to fit', async () => {
    expect((await shown(`echo ${'a'.repeat(DESKTOP_APPROVE_MAX_CHARS)}; sh`)).approve).toBe(false);
    expect((await shown(`echo ${'a'.repeat(300)}; sh`)).approve).toBe(false);
  });
});
