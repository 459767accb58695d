import type { BrowserWindowConstructorOptions } from 'electron';
import { describe, expect, it } from 'vitest';
import {
  WindowService,
  type WindowBounds,
  type WindowLike,
} from '../../../../main/shell/window-service';
import {
  CONTENT_SECURITY_POLICY,
  secureSession,
  withCsp,
} from '../../../../main/shell/window-security';
import { FakeEmitter } from './fakes';

class FakeContents extends FakeEmitter {
  static nextId = 1;
  readonly id = FakeContents.nextId++;
  openHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  sent: unknown[][] = [];
  destroyed = false;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }) {
    this.openHandler = handler;
  }
  send(channel: string, ...args: unknown[]) {
    this.sent.push([channel, ...args]);
  }
  isDestroyed() {
    return this.destroyed;
  }
}

class FakeWindow extends FakeEmitter implements WindowLike {
  readonly webContents = new FakeContents();
  loads: { file: string; hash: string | undefined }[] = [];
  shown = 0;
  focused = 0;
  restored = 0;
  minimized = false;
  destroyed = false;
  constructor(readonly options: BrowserWindowConstructorOptions) {
    super();
  }
  async loadFile(file: string, options?: { hash?: string }) {
    this.loads.push({ file, hash: options?.hash });
  }
  show() {
    this.shown++;
  }
  focus() {
    this.focused++;
  }
  restore() {
    this.restored++;
    this.minimized = false;
  }
  isMinimized() {
    return this.minimized;
  }
  isDestroyed() {
    return this.destroyed;
  }
  getBounds() {
    return { x: 10, y: 20, width: 800, height: 600 };
  }
}

function setup(saved?: WindowBounds) {
  const windows: FakeWindow[] = [];
  const warnings: string[] = [];
  const savedBounds: WindowBounds[] = [];
  const service = new WindowService({
    createWindow: (options) => {
      const win = new FakeWindow(options);
      windows.push(win);
      return win;
    },
    rendererHtml: '/app/dist/renderer/index.html',
    preloadPath: '/app/dist/preload/index.cjs',
    bounds: { load: () => saved, save: (b) => void savedBounds.push(b) },
    devTools: false,
    onWarning: (m) => void warnings.push(m),
  });
  return { service, windows, warnings, savedBounds };
}

const preventable = () => {
  const event = { prevented: false, preventDefault: () => void (event.prevented = true) };
  return event;
};

describe('WindowService', () => {
  it('creates a hidden, secured window on a request and shows it when ready', () => {
    const { service, windows } = setup();
    service.openRequest('req 42');
    expect(windows).toHaveLength(1);
    const win = windows[0]!;
    expect(win.options.show).toBe(false);
    expect(win.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webviewTag: false,
      webSecurity: true,
      devTools: false,
      preload: '/app/dist/preload/index.cjs',
    });
    expect(win.loads).toEqual([
      { file: '/app/dist/renderer/index.html', hash: 'request=req%2042' },
    ]);
    expect(win.shown).toBe(0);
    win.emit('ready-to-show');
    expect(win.shown).toBe(1);
    expect(win.focused).toBe(1);
  });

  it('reuses and focuses the open window for the next request', () => {
    const { service, windows } = setup();
    service.openRequest('a');
    windows[0]!.emit('ready-to-show');
    windows[0]!.minimized = true;
    service.openRequest('b');
    expect(windows).toHaveLength(1);
    const win = windows[0]!;
    expect(win.loads.map((l) => l.hash)).toEqual(['request=a', 'request=b']);
    expect(win.restored).toBe(1);
    expect(win.focused).toBe(2);
  });

  it('open() shows the home view, or just focuses a window that is already open', () => {
    const { service, windows } = setup();
    service.open();
    expect(windows[0]!.loads).toEqual([{ file: '/app/dist/renderer/index.html', hash: undefined }]);
    service.open();
    expect(windows).toHaveLength(1);
    expect(windows[0]!.loads).toHaveLength(1);
    expect(windows[0]!.focused).toBe(1);
  });

  it('creates a new window after the old one was closed', () => {
    const { service, windows } = setup();
    service.open();
    windows[0]!.emit('closed');
    service.openRequest('x');
    expect(windows).toHaveLength(2);
    windows[1]!.destroyed = true;
    service.open();
    expect(windows).toHaveLength(3);
  });

  it('denies every navigation, redirect, webview and new window', () => {
    const { service, windows, warnings } = setup();
    service.open();
    const contents = windows[0]!.webContents;
    for (const event of ['will-navigate', 'will-redirect']) {
      const e = preventable();
      contents.emit(event, e, 'https://evil.example/');
      expect(e.prevented).toBe(true);
    }
    const webview = preventable();
    contents.emit('will-attach-webview', webview);
    expect(webview.prevented).toBe(true);
    expect(contents.openHandler?.({ url: 'https://evil.example/popup' })).toEqual({
      action: 'deny',
    });
    expect(warnings).toEqual([
      'blocked navigation to https://evil.example/',
      'blocked redirect to https://evil.example/',
      'blocked webview',
      'blocked new window to https://evil.example/popup',
    ]);
  });

  it('remembers bounds: restores saved ones and saves them on close', () => {
    const { service, windows, savedBounds } = setup({ x: 1, y: 2, width: 700, height: 500 });
    service.open();
    expect(windows[0]!.options).toMatchObject({ x: 1, y: 2, width: 700, height: 500 });
    windows[0]!.emit('close');
    expect(savedBounds).toEqual([{ x: 10, y: 20, width: 800, height: 600 }]);
  });

  it('knows its own WebContents, for the IPC sender check and event forwarding', () => {
    const { service, windows } = setup();
    expect(service.contents()).toEqual([]);
    service.open();
    const id = windows[0]!.webContents.id;
    expect(service.isOwnContents(id)).toBe(true);
    expect(service.isOwnContents(id + 1000)).toBe(false);
    expect(service.contents()).toEqual([windows[0]!.webContents]);
  });
});

describe('session security', () => {
  it('sets the strict CSP on every response, replacing any other, and refuses permissions', () => {
    let headersListener: ((d: object, cb: (r: object) => void) => void) | null = null;
    let permission: ((c: unknown, p: string, cb: (g: boolean) => void) => void) | null = null;
    let check: (() => boolean) | null = null;
    secureSession({
      webRequest: {
        onHeadersReceived: (l) => void (headersListener = l as typeof headersListener),
      },
      setPermissionRequestHandler: (h) => void (permission = h),
      setPermissionCheckHandler: (h) => void (check = h),
    });
    let response: unknown;
    headersListener!(
      { responseHeaders: { 'content-security-policy': ['default-src *'], 'X-Other': ['1'] } },
      (r) => void (response = r),
    );
    expect(response).toEqual({
      responseHeaders: { 'X-Other': ['1'], 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] },
    });
    let granted: boolean | undefined;
    permission!(null, 'media', (g) => void (granted = g));
    expect(granted).toBe(false);
    expect(check!()).toBe(false);
  });

  it('starts the policy from default-src none and allows only self scripts', () => {
    expect(CONTENT_SECURITY_POLICY.startsWith("default-src 'none'")).toBe(true);
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self';");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe');
    expect(withCsp({})).toEqual({ 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] });
  });
});
