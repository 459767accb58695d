import type { MenuItemConstructorOptions } from 'electron';
import type { TrayCommand, TrayImage, TrayMenuItem, TrayModel } from './tray-model';

/** The part of Electron's `Tray` the service uses; a fake stands in for it in tests. */
export interface TrayLike<Image, MenuT> {
  setImage(image: Image): void;
  setToolTip(toolTip: string): void;
  setTitle(title: string): void;
  setContextMenu(menu: MenuT | null): void;
  on(event: 'click', listener: () => void): unknown;
  destroy(): void;
}

/** Electron constructors and callbacks the tray needs, injected by the composition root. */
export interface TrayServiceDeps<Image, MenuT> {
  /** `(image) => new Tray(image)` */
  createTray(image: Image): TrayLike<Image, MenuT>;
  /** `Menu.buildFromTemplate` */
  buildMenu(template: MenuItemConstructorOptions[]): MenuT;
  /** Loads the picture of one state (from assets/). */
  loadImage(image: TrayImage): Image;
  /** Called with the command of a clicked menu item. */
  onCommand(command: TrayCommand): void;
  /** Left click on the icon (not emitted on Linux AppIndicator, hence the menu's "Open"). */
  onClick(): void;
}

/**
 * Renders {@link TrayModel}s onto one system tray icon. It holds no state of its own beyond
 * what it last drew, so everything worth testing lives in the pure model.
 */
export class TrayService<Image = unknown, MenuT = unknown> {
  private tray: TrayLike<Image, MenuT> | null = null;
  private image: TrayImage | null = null;

  constructor(private readonly deps: TrayServiceDeps<Image, MenuT>) {}

  render(model: TrayModel): void {
    if (!this.tray) {
      this.tray = this.deps.createTray(this.deps.loadImage(model.image));
      this.tray.on('click', () => this.deps.onClick());
    } else if (model.image !== this.image) {
      this.tray.setImage(this.deps.loadImage(model.image));
    }
    this.image = model.image;
    this.tray.setToolTip(model.tooltip);
    this.tray.setTitle(model.title);
    this.tray.setContextMenu(this.deps.buildMenu(model.items.map((i) => this.menuItem(i))));
  }

  destroy(): void {
    this.tray?.destroy();
    this.tray = null;
    this.image = null;
  }

  private menuItem(item: TrayMenuItem): MenuItemConstructorOptions {
    switch (item.kind) {
      case 'separator':
        return { id: item.id, type: 'separator' };
      case 'checkbox':
        return {
          id: item.id,
          label: item.label,
          type: 'checkbox',
          checked: item.checked,
          click: () => this.deps.onCommand(item.command),
        };
      case 'item': {
        const { command } = item;
        return {
          id: item.id,
          label: item.label,
          enabled: item.enabled,
          ...(command ? { click: () => this.deps.onCommand(command) } : {}),
        };
      }
    }
  }
}
