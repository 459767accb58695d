/**
 * The security settings docs/security.md names for every Electron window, in one place so that the
 * window service, the composition root and the tests share them.
 */

/**
 * The renderer's Content-Security-Policy. Pages load from file://, where Chromium sends no
 * response headers, so renderer/index.html must carry the same policy in a
 * `<meta http-equiv="Content-Security-Policy">`; the header set here covers anything that
 * does go through the network stack.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The webPreferences of every Gatehouse window: isolated, sandboxed, no Node. */
export function secureWebPreferences(preloadPath: string, devTools: boolean) {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    spellcheck: false,
    devTools,
  } as const;
}

interface PreventableEvent {
  preventDefault(): void;
}

/** The events of Electron's WebContents that {@link hardenWebContents} hooks. */
export interface HardenableContents {
  on(event: 'will-navigate', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-redirect', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/**
 * Denies every navigation away from the loaded page, every redirect, every `<webview>` and
 * every new window. Fragment changes (`#request=…`) are in-page navigations and do not
 * reach `will-navigate`, so the renderer's own routing keeps working.
 */
export function hardenWebContents(
  contents: HardenableContents,
  onBlocked: (what: string, url: string) => void = () => {},
): void {
  contents.on('will-navigate', (event, url) => {
    event.preventDefault();
    onBlocked('navigation', url);
  });
  contents.on('will-redirect', (event, url) => {
    event.preventDefault();
    onBlocked('redirect', url);
  });
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    onBlocked('webview', '');
  });
  contents.setWindowOpenHandler(({ url }) => {
    onBlocked('new window', url);
    return { action: 'deny' };
  });
}

type Headers = Record<string, string | string[]>;

/** The parts of Electron's Session that {@link secureSession} configures. */
export interface SecurableSession {
  webRequest: {
    onHeadersReceived(
      listener: (
        details: { responseHeaders?: Record<string, string[]> },
        callback: (response: { responseHeaders?: Headers }) => void,
      ) => void,
    ): void;
  };
  setPermissionRequestHandler(
    handler: (contents: unknown, permission: string, callback: (granted: boolean) => void) => void,
  ): void;
  setPermissionCheckHandler(handler: () => boolean): void;
}

/** Adds the CSP header to every response and refuses every permission (camera, geolocation…). */
export function secureSession(session: SecurableSession): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCsp(details.responseHeaders ?? {}) });
  });
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
}

/** Replaces any Content-Security-Policy header (whatever its case) with ours. */
export function withCsp(headers: Record<string, string[]>): Headers {
  const kept = Object.entries(headers).filter(
    ([name]) => name.toLowerCase() !== 'content-security-policy',
  );
  return { ...Object.fromEntries(kept), 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] };
}
