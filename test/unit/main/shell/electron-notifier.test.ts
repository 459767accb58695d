import type { NotificationConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import { ElectronNotifier, type NotificationLike } from '../../../../main/shell/electron-notifier';
import { DesktopChannel } from '../../../../main/notify/desktop-channel';
import { FakeEmitter, flush } from './fakes';

class FakeNotification extends FakeEmitter implements NotificationLike {
  shown = 0;
  constructor(readonly options: NotificationConstructorOptions) {
    super();
  }
  show() {
    this.shown++;
  }
  close() {
    this.emit('close');
  }
}

function setup(platform: NodeJS.Platform = 'linux', supported = true) {
  const created: FakeNotification[] = [];
  const opened: string[] = [];
  const decided: [string, string][] = [];
  const errors: unknown[] = [];
  const notifier = new ElectronNotifier({
    createNotification: (options) => {
      const n = new FakeNotification(options);
      created.push(n);
      return n;
    },
    isSupported: () => supported,
    platform,
    openRequest: (id) => void opened.push(id),
    open: () => void opened.push('(home)'),
    openUrl: (url) => void opened.push(`(url) ${url}`),
    decide: async (id, decision) => {
      if (id === 'fails') throw new Error('already decided');
      decided.push([id, decision]);
    },
    onError: (e) => void errors.push(e),
  });
  return { notifier, created, opened, decided, errors };
}

describe('ElectronNotifier', () => {
  it('shows a notice and opens its request on click', async () => {
    const t = setup('linux');
    await t.notifier.show({
      title: 'builder wants to git_push',
      body: 'Push <b>main</b> & tags',
      urgency: 'high',
      requestId: 'r1',
    });
    const n = t.created[0]!;
    expect(n.shown).toBe(1);
    expect(n.options).toMatchObject({
      title: 'builder wants to git_push',
      body: 'Push &lt;b&gt;main&lt;/b&gt; &amp; tags',
      urgency: 'critical',
      timeoutType: 'never',
    });
    expect(n.options.actions).toBeUndefined();
    expect(t.notifier.liveCount).toBe(1);
    n.emit('click');
    expect(t.opened).toEqual(['r1']);
    expect(t.notifier.liveCount).toBe(0);
  });

  it('routes a click on a digest (no request) to the home view', async () => {
    const t = setup('win32');
    await t.notifier.show({ title: '3 requests', body: 'a <b>', urgency: 'low' });
    const n = t.created[0]!;
    expect(n.options).toMatchObject({ body: 'a <b>', urgency: 'low', timeoutType: 'default' });
    n.emit('click');
    expect(t.opened).toEqual(['(home)']);
  });

  it('opens the hub’s page on a click on a team request’s notice, with no buttons', async () => {
    const t = setup('darwin');
    await t.notifier.show({
      title: 'build-a: builder wants to deploy',
      body: 'Waiting on build-a.',
      urgency: 'normal',
      url: 'https://hub.example/decide?machine=build-a&request=r9&decision=open&sig=x',
    });
    const n = t.created[0]!;
    expect(n.options.actions).toBeUndefined();
    n.emit('click');
    expect(t.opened).toEqual([
      '(url) https://hub.example/decide?machine=build-a&request=r9&decision=open&sig=x',
    ]);
  });

  it('offers Deny only on macOS when what the request runs was cut to fit the notice', async () => {
    const t = setup('darwin');
    await t.notifier.show({
      title: 't',
      body: 'b',
      urgency: 'normal',
      requestId: 'r9',
      approve: false,
    });
    expect(t.created[0]!.options.actions).toEqual([{ type: 'button', text: 'Deny' }]);
    t.created[0]!.emit('action', {}, 0);
    t.created[0]!.emit('action', {}, 1);
    await flush();
    expect(t.decided).toEqual([['r9', 'deny']]);
  });

  it('offers Approve and Deny buttons on macOS and decides through the callback', async () => {
    const t = setup('darwin');
    await t.notifier.show({ title: 't', body: 'b', urgency: 'normal', requestId: 'r2' });
    await t.notifier.show({ title: 't', body: 'b', urgency: 'normal', requestId: 'r3' });
    await t.notifier.show({ title: 't', body: 'b', urgency: 'normal', requestId: 'fails' });
    expect(t.created[0]!.options.actions).toEqual([
      { type: 'button', text: 'Approve once' },
      { type: 'button', text: 'Deny' },
    ]);
    t.created[0]!.emit('action', {}, 0);
    t.created[1]!.emit('action', {}, 1);
    t.created[2]!.emit('action', {}, 0);
    t.created[1]!.emit('action', {}, 7);
    await flush();
    expect(t.decided).toEqual([
      ['r2', 'approve'],
      ['r3', 'deny'],
    ]);
    expect(t.errors).toHaveLength(1);
    expect(t.opened).toEqual([]);
  });

  it('has no buttons on macOS for a notice without a request', async () => {
    const t = setup('darwin');
    await t.notifier.show({ title: 't', body: 'b', urgency: 'normal' });
    expect(t.created[0]!.options.actions).toBeUndefined();
  });

  it('rejects where notifications are not supported, so the dispatcher logs it', async () => {
    const t = setup('linux', false);
    await expect(t.notifier.show({ title: 't', body: 'b', urgency: 'low' })).rejects.toThrow(
      /not supported/,
    );
    expect(t.created).toHaveLength(0);
  });

  it('drops closed notices and caps the ones it holds', async () => {
    const t = setup('linux');
    for (let i = 0; i < 60; i++) {
      await t.notifier.show({ title: 't', body: 'b', urgency: 'low', requestId: `r${i}` });
    }
    expect(t.notifier.liveCount).toBe(50);
    t.created[59]!.close();
    expect(t.notifier.liveCount).toBe(49);
  });

  it('serves as the desktop channel of the notifier', async () => {
    const t = setup('linux');
    await new DesktopChannel(t.notifier).send({
      id: 'n1',
      urgency: 'normal',
      title: 'builder wants to deploy',
      body: 'why',
      items: [],
      requestId: 'r7',
    });
    t.created[0]!.emit('click');
    expect(t.opened).toEqual(['r7']);
  });
});
