import { pathToFileURL } from 'node:url';

/** Who sent an IPC message, as far as the sender check needs it. */
export interface IpcSender {
  /** `event.sender.id`: the WebContents that sent it. */
  contentsId: number;
  /** `event.senderFrame.url`; null when the frame is gone (navigated away or destroyed). */
  frameUrl: string | null;
  /** False for messages from iframes, which Gatehouse's renderer never creates. */
  isMainFrame: boolean;
}

/**
 * Decides whether an IPC message may reach the admin service (GitHub Desktop's
 * trusted-ipc-sender): it must come from the main frame of one of our own windows, and that
 * frame must show our bundled renderer file, nothing else.
 */
export class TrustedSenderPolicy {
  private readonly rendererPath: string;

  constructor(
    rendererHtml: string,
    private readonly isOwnContents: (contentsId: number) => boolean,
  ) {
    this.rendererPath = decodeURIComponent(pathToFileURL(rendererHtml).pathname);
  }

  /** Returns why the sender is refused, or null when it is trusted. */
  check(sender: IpcSender): string | null {
    if (!this.isOwnContents(sender.contentsId)) return 'sender is not a Gatehouse window';
    if (sender.frameUrl === null) return 'sender frame is gone';
    if (!sender.isMainFrame) return 'sender is a subframe';
    let url: URL;
    try {
      url = new URL(sender.frameUrl);
    } catch {
      return 'sender URL is not a URL';
    }
    if (url.protocol !== 'file:' || url.host !== '') return `sender URL is not a local file`;
    if (decodeURIComponent(url.pathname) !== this.rendererPath) {
      return 'sender URL is not the Gatehouse renderer';
    }
    return null;
  }
}
