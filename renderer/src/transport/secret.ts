const STORAGE_KEY = 'gatehouse.dashboardSecret';

/**
 * Takes the dashboard secret from the URL fragment (`#secret=...`, as the daemon prints it),
 * keeps it in sessionStorage for reloads of this tab, and removes it from the address bar
 * and the history entry so it is not shown, bookmarked or shared by accident. The other
 * fragment parameters (for example `request=<id>`) stay.
 */
export function takeDashboardSecret(win: Window = window): string | undefined {
  const params = new URLSearchParams(win.location.hash.slice(1));
  const fromUrl = params.get('secret');
  if (fromUrl) {
    win.sessionStorage.setItem(STORAGE_KEY, fromUrl);
    params.delete('secret');
    const rest = params.toString();
    const url = win.location.pathname + win.location.search + (rest ? `#${rest}` : '');
    win.history.replaceState(null, '', url);
    return fromUrl;
  }
  return win.sessionStorage.getItem(STORAGE_KEY) ?? undefined;
}

/** Drops the kept secret once the session cookie stands in for it. */
export function forgetDashboardSecret(win: Window = window): void {
  win.sessionStorage.removeItem(STORAGE_KEY);
}
