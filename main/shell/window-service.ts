import type { BrowserWindowConstructorOptions } from 'electron';
import {
  hardenWebContents,
  secureWebPreferences,
  type HardenableContents,
} from './window-security';

/** A window's position and size, as kept in the shell settings. */
export interface WindowBounds {
  x?: number;
  y?: number;
  width: number;
  height: number;
}

/** The WebContents of a Gatehouse window, as far as the shell uses it. */
export interface WindowContents extends HardenableContents {
  readonly id: number;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
}

/** The part of Electron's BrowserWindow the service uses; a fake stands in for it in tests. */
export interface WindowLike {
  readonly webContents: WindowContents;
  loadFile(filePath: string, options?: { hash?: string }): Promise<void>;
  show(): void;
  focus(): void;
  restore(): void;
  isMinimized(): boolean;
  isDestroyed(): boolean;
  getBounds(): { x: number; y: number; width: number; height: number };
  once(event: 'ready-to-show', listener: () => void): unknown;
  on(event: 'close' | 'closed', listener: () => void): unknown;
}

export interface WindowServiceDeps {
  /** `(options) => new BrowserWindow(options)` */
  createWindow(options: BrowserWindowConstructorOptions): WindowLike;
  /** Absolute path of dist/renderer/index.html. */
  rendererHtml: string;
  /** Absolute path of dist/preload/index.cjs. */
  preloadPath: string;
  /** Remembers where the window was (shell settings). */
  bounds: { load(): WindowBounds | undefined; save(bounds: WindowBounds): void };
  /** Developer tools only in development builds. */
  devTools: boolean;
  /** App icon for the window (Linux and Windows task bars). */
  iconPath?: string;
  /** Where blocked navigations and load failures are reported (a log in the app). */
  onWarning(message: string): void;
}

const DEFAULT_BOUNDS: WindowBounds = { width: 980, height: 720 };

/**
 * The click-to-approve window: one at most, created hidden on first use, opened on a request
 * (`#request=<id>`, which the renderer routes) or on its home view, and brought to front.
 */
export class WindowService {
  private window: WindowLike | null = null;

  constructor(private readonly deps: WindowServiceDeps) {}

  /** Opens (or focuses) the window on one request. */
  openRequest(requestId: string): void {
    const hash = `request=${encodeURIComponent(requestId)}`;
    const existing = this.live();
    if (existing) {
      // Same document, new fragment: Chromium treats it as an in-page navigation.
      this.load(existing, hash);
      this.reveal(existing);
    } else {
      this.create(hash);
    }
  }

  /** Opens (or focuses) the window where it was, or on its home view. */
  open(): void {
    const existing = this.live();
    if (existing) this.reveal(existing);
    else this.create(undefined);
  }

  /** The WebContents id of the window, if open: the only sender IPC trusts. */
  isOwnContents(id: number): boolean {
    const win = this.live();
    return win !== null && win.webContents.id === id;
  }

  /** Every live window's WebContents, for forwarding engine events. */
  contents(): WindowContents[] {
    const win = this.live();
    return win && !win.webContents.isDestroyed() ? [win.webContents] : [];
  }

  private create(hash: string | undefined): void {
    const bounds = this.deps.bounds.load() ?? DEFAULT_BOUNDS;
    const win = this.deps.createWindow({
      ...bounds,
      minWidth: 520,
      minHeight: 400,
      show: false,
      title: 'Gatehouse',
      backgroundColor: '#1e1f22',
      autoHideMenuBar: true,
      ...(this.deps.iconPath ? { icon: this.deps.iconPath } : {}),
      webPreferences: secureWebPreferences(this.deps.preloadPath, this.deps.devTools),
    });
    this.window = win;
    hardenWebContents(win.webContents, (what, url) =>
      this.deps.onWarning(`blocked ${what}${url ? ` to ${url}` : ''}`),
    );
    win.once('ready-to-show', () => this.reveal(win));
    win.on('close', () => this.deps.bounds.save(win.getBounds()));
    win.on('closed', () => {
      if (this.window === win) this.window = null;
    });
    this.load(win, hash);
  }

  private load(win: WindowLike, hash: string | undefined): void {
    win
      .loadFile(this.deps.rendererHtml, hash ? { hash } : {})
      .catch((error: unknown) => this.deps.onWarning(`window failed to load: ${String(error)}`));
  }

  private reveal(win: WindowLike): void {
    if (win.isMinimized()) win.restore();
    win.show();
    win.focus();
  }

  private live(): WindowLike | null {
    if (this.window?.isDestroyed()) this.window = null;
    return this.window;
  }
}
