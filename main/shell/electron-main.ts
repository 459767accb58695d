/**
 * The composition root of desktop mode: the Electron main process runs the core (database,
 * engine, admin service, agent socket) and the notifier, and adds the tray, the
 * click-to-approve window, desktop notifications and the IPC bridge around it.
 *
 * Wiring order (each step only uses what the steps before built):
 *   1. single-instance lock, app-wide listeners (before `ready`)
 *   2. paths and shell settings (electron-store, zod-checked)
 *   3. session security: CSP header, no permissions (before any window exists)
 *   4. the window service (no window yet)
 *   5. the runtime headless mode runs too (main/runtime/start-runtime.ts: the core and the
 *      agent socket, remote listener, notifier, reply topic, http hook), with Electron's
 *      desktop notifications
 *   6. the IPC bridge (trusted senders only) with event forwarding
 *   7. the tray
 *   8. login item; the window only if not starting hidden
 * Quitting undoes it in reverse, closing the core last.
 *
 * Everything that decides anything lives in the core and is tested under plain Node; the
 * services here are thin and take their Electron constructors as arguments, so their logic
 * is unit-tested with fakes (test/unit/main/shell/). This file only connects them.
 */
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  nativeImage,
  Notification,
  session,
  shell,
  Tray,
} from 'electron';
import Store from 'electron-store';
import { join } from 'node:path';
import { DataFolderInUseError } from '../store/data-folder-lock';
import { resolveHome, resolveSocketPath } from '../paths';
import { AlreadyRunningError } from '../server/agent-socket';
import { channelBoundAdmin } from '../server/transport-channel';
import { startRuntime } from '../runtime/start-runtime';
import { ElectronNotifier } from './electron-notifier';
import { forwardEvents, registerAdminIpc } from './ipc-main';
import { HIDDEN_FLAG, setStartAtLogin } from './login-item';
import { resolveNativeBinding } from './native-binding';
import { ShellSettingsStore } from './shell-settings';
import { TrayController } from './tray-controller';
import type { TrayImage } from './tray-model';
import { TrayService } from './tray-service';
import { TrustedSenderPolicy } from './trusted-sender';
import { WindowService } from './window-service';
import { hardenWebContents, secureSession } from './window-security';

const APP_ID = 'dev.gatehouse.app';

const log = (message: string, error?: unknown): void => {
  if (error === undefined) console.error(`gatehouse: ${message}`);
  else console.error(`gatehouse: ${message}:`, error instanceof Error ? error.message : error);
};

/** What quitting has to undo, filled in as `onReady` builds it. */
const teardown: (() => Promise<void> | void)[] = [];
let windows: WindowService | null = null;
let closing: Promise<void> | null = null;

function main(): void {
  // 1. Chromium's profile lives in the data directory, so the single-instance lock below is
  // per GATEHOUSE_HOME, like the agent socket. One Gatehouse per data directory: a second
  // start only brings the first one's window up.
  app.setPath('userData', join(resolveHome(), 'electron'));
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  app.setAppUserModelId(APP_ID); // Windows shows notifications only for a known app id.
  app.on('second-instance', () => windows?.open());
  // A tray app keeps running with no window open.
  app.on('window-all-closed', () => {});
  // Every WebContents, whatever creates it, gets the navigation and new-window denials (the
  // window service adds them to its own window too, and logs what it blocks).
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents));
  app.on('before-quit', (event) => {
    if (closing === null) {
      event.preventDefault();
      closing = shutdown().finally(() => app.quit());
    }
  });
  app.whenReady().then(onReady).catch(fatal);
}

async function onReady(): Promise<void> {
  // 2. Paths. The app's files sit beside package.json (app.getAppPath(): a folder or app.asar).
  const appPath = app.getAppPath();
  const rendererHtml = join(appPath, 'dist', 'renderer', 'index.html');
  const preloadPath = join(appPath, 'dist', 'preload', 'index.cjs');
  const assets = join(appPath, 'assets');
  // The same data directory as the CLI and headless mode, so `gatehouse` finds this instance.
  const home = resolveHome();
  const shellSettings = new ShellSettingsStore(
    new Store({ name: 'shell-settings', cwd: home, clearInvalidConfig: true }),
    (key, problem) => log(`shell setting ${key} is invalid (${problem}); using its default`),
  );
  const settings = shellSettings.get();

  // 3. Before any window: CSP header on every response, every permission refused.
  secureSession(session.defaultSession);

  // 4. The window service: it builds the window when first opened; notices and the tray open it.
  const windowService = new WindowService({
    createWindow: (options) => new BrowserWindow(options),
    rendererHtml,
    preloadPath,
    bounds: shellSettings.windowBounds(),
    devTools: !app.isPackaged,
    iconPath: join(assets, 'icon.png'),
    onWarning: (message) => log(message),
  });
  windows = windowService;

  // 5. The runtime both roots share (main/runtime/start-runtime.ts): the core and the agent
  // socket (fails if a headless Gatehouse already runs), decision links for a phone when
  // `dashboard.remote` is on (no loopback dashboard here: links need its publicUrl), the
  // notifier with Electron's notices, the reply topic and the http hook.
  const runtime = await startRuntime({
    home,
    socketPath: resolveSocketPath(),
    env: process.env,
    core: {
      nativeBinding: resolveNativeBinding({
        isPackaged: app.isPackaged,
        resourcesPath: process.resourcesPath,
        appPath,
        env: process.env,
      }),
    },
    desktop: ({ decide }) =>
      new ElectronNotifier({
        createNotification: (options) => new Notification(options),
        isSupported: () => Notification.isSupported(),
        platform: process.platform,
        openRequest: (id) => windowService.openRequest(id),
        open: () => windowService.open(),
        // Only http(s) pages the linked hub sent (team_waiting is checked at the link).
        openUrl: (url) => {
          if (/^https?:\/\//i.test(url))
            shell.openExternal(url).catch((error: unknown) => log('could not open the hub', error));
        },
        decide,
        iconPath: join(assets, 'icon.png'),
        onError: (error) => log('notification action failed', error),
      }),
    print: (line) => log(line.replace(/^gatehouse: /, '')),
    log,
  });
  teardown.push(() => runtime.stop());
  const core = runtime.core;
  log(`listening on ${core.socketPath}`);

  // 6. The IPC bridge. Only our window's main frame showing our renderer file may call the
  // admin service.
  const senders = new TrustedSenderPolicy(rendererHtml, (id) => windowService.isOwnContents(id));
  teardown.push(
    registerAdminIpc({
      ipcMain,
      // The window's decisions are recorded as `desktop`, whatever the page says.
      admin: channelBoundAdmin(core.admin, 'desktop'),
      checkSender: (sender) => senders.check(sender),
      onRejected: (reason, method) => log(`refused IPC call ${String(method)}: ${reason}`),
    }),
  );
  teardown.push(forwardEvents(core.admin, () => windowService.contents()));

  // 7. The tray.
  const loginItem = {
    get: () => shellSettings.get().startAtLogin,
    set: (enabled: boolean) => {
      applyLoginItem(enabled);
      shellSettings.update({ startAtLogin: enabled });
    },
  };
  let controller: TrayController | null = null;
  const trayService = new TrayService({
    createTray: (image) => new Tray(image),
    buildMenu: (template) => Menu.buildFromTemplate(template),
    loadImage: (image: TrayImage) => nativeImage.createFromPath(join(assets, `tray-${image}.png`)),
    onCommand: (command) => void controller?.run(command),
    onClick: () => windowService.open(),
  });
  controller = new TrayController({
    admin: core.admin,
    tray: trayService,
    windows: windowService,
    startAtLogin: loginItem,
    quit: () => app.quit(),
    onError: (error) => log('tray', error),
  });
  teardown.push(() => trayService.destroy());
  teardown.push(() => controller?.stop());
  await controller.start();

  // 8. Login item as the settings say; the window unless starting hidden to the tray.
  applyLoginItem(settings.startAtLogin);
  if (process.platform === 'darwin') app.dock?.hide();
  if (!settings.startHidden && !process.argv.includes(HIDDEN_FLAG)) windowService.open();
}

function applyLoginItem(enabled: boolean): void {
  try {
    setStartAtLogin(
      {
        platform: process.platform,
        setLoginItemSettings: (s) => app.setLoginItemSettings(s),
        executable: process.env.APPIMAGE ?? process.execPath,
      },
      enabled,
    );
  } catch (error) {
    log('could not change the login item', error);
  }
}

/** Undoes `onReady` in reverse; the core (database, socket) closes last. */
async function shutdown(): Promise<void> {
  for (const undo of teardown.reverse()) {
    try {
      await undo();
    } catch (error) {
      log('error while quitting', error);
    }
  }
}

function fatal(error: unknown): void {
  const message =
    error instanceof AlreadyRunningError
      ? `${error.message}. Stop it first (a second Gatehouse needs its own GATEHOUSE_HOME and GATEHOUSE_SOCKET).`
      : error instanceof DataFolderInUseError
        ? `${error.message}.`
        : `Gatehouse could not start: ${error instanceof Error ? error.message : String(error)}`;
  log(message);
  dialog.showErrorBox('Gatehouse', message);
  // `closing` set first so before-quit does not wait on a half-built core twice.
  closing = shutdown().finally(() => app.exit(1));
}

main();
