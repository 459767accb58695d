/**
 * A stand-in for the `electron` module for tests of the composition root: the classes record
 * what is done to them, and `state` holds it for the test to read. One instance per test file
 * (vitest gives each file its own module registry).
 */
import Conf from 'conf';
import { FakeEmitter } from './fakes';

function createFakeElectron() {
  let contentsIds = 100;
  class WebContents extends FakeEmitter {
    readonly id = contentsIds++;
    sent: unknown[][] = [];
    openHandler: unknown = null;
    setWindowOpenHandler(h: unknown) {
      this.openHandler = h;
    }
    send(...args: unknown[]) {
      this.sent.push(args);
    }
    isDestroyed() {
      return false;
    }
  }
  const state = {
    lock: true,
    quitting: false,
    exited: null as number | null,
    appPath: '/opt/gatehouse-app',
    paths: {} as Record<string, string>,
    windows: [] as BrowserWindow[],
    trays: [] as Tray[],
    notifications: [] as Notification[],
    handlers: new Map<string, (...args: unknown[]) => unknown>(),
    errorBoxes: [] as string[],
    loginItems: [] as unknown[],
    sessionSecured: { csp: false, permissions: false },
  };
  class App extends FakeEmitter {
    isPackaged = false;
    dock = { hide: () => {} };
    requestSingleInstanceLock = () => state.lock;
    setAppUserModelId() {}
    setPath(name: string, value: string) {
      state.paths[name] = value;
    }
    getPath(name: string) {
      return state.paths[name] ?? `/nonexistent/${name}`;
    }
    getVersion = () => '0.1.0';
    getAppPath = () => state.appPath;
    whenReady = () => Promise.resolve();
    setLoginItemSettings(s: unknown) {
      state.loginItems.push(s);
    }
    quit() {
      let prevented = false;
      this.emit('before-quit', { preventDefault: () => (prevented = true) });
      if (!prevented) state.quitting = true;
    }
    exit(code: number) {
      state.exited = code;
    }
  }
  class BrowserWindow extends FakeEmitter {
    readonly webContents = new WebContents();
    loads: { file: string; hash?: string }[] = [];
    visible = false;
    constructor(readonly options: Record<string, unknown>) {
      super();
      state.windows.push(this);
    }
    async loadFile(file: string, options: { hash?: string } = {}) {
      this.loads.push({ file, ...options });
    }
    show() {
      this.visible = true;
    }
    focus() {}
    restore() {}
    isMinimized = () => false;
    isDestroyed = () => false;
    getBounds = () => ({ x: 0, y: 0, width: 900, height: 700 });
  }
  class Tray extends FakeEmitter {
    tooltip = '';
    menu: { id?: string; click?: () => void }[] = [];
    images: string[] = [];
    destroyed = false;
    constructor(image: string) {
      super();
      this.images.push(image);
      state.trays.push(this);
    }
    setImage(image: string) {
      this.images.push(image);
    }
    setToolTip(t: string) {
      this.tooltip = t;
    }
    setTitle() {}
    setContextMenu(menu: { id?: string; click?: () => void }[]) {
      this.menu = menu;
    }
    destroy() {
      this.destroyed = true;
    }
  }
  class Notification extends FakeEmitter {
    shown = false;
    constructor(readonly options: { title: string; body: string }) {
      super();
      state.notifications.push(this);
    }
    static isSupported = () => true;
    show() {
      this.shown = true;
    }
    close() {}
  }
  const electron = {
    app: new App(),
    BrowserWindow,
    Tray,
    Notification,
    Menu: { buildFromTemplate: (t: unknown) => t },
    nativeImage: { createFromPath: (p: string) => p },
    dialog: { showErrorBox: (_t: string, m: string) => void state.errorBoxes.push(m) },
    ipcMain: {
      handle: (channel: string, fn: (...args: unknown[]) => unknown) =>
        state.handlers.set(channel, fn),
      removeHandler: (channel: string) => state.handlers.delete(channel),
      on: () => {},
    },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: () => void (state.sessionSecured.csp = true) },
        setPermissionRequestHandler: () => void (state.sessionSecured.permissions = true),
        setPermissionCheckHandler: () => {},
      },
    },
  };
  return { state, electron };
}

export const fake = createFakeElectron();
export type FakeElectronState = typeof fake.state;

/**
 * electron-store is loaded by Node itself (outside vitest's module graph), so a mock of
 * `electron` would not reach it; its storage engine, Conf, stands in, given the options the
 * way electron-store hands them over (`name` becomes `configName`).
 */
export class ElectronStoreOverConf extends Conf {
  constructor({ name, ...options }: { name?: string; cwd: string; clearInvalidConfig?: boolean }) {
    super({ ...options, configName: name ?? 'config' });
  }
}
