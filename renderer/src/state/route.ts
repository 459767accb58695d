import { useCallback, useSyncExternalStore } from 'react';

import { formatRoute, parseRoute, type Route } from './route-parse';

export { VIEWS, formatRoute, parseRoute, type Route, type View } from './route-parse';

const subscribeHash = (onChange: () => void) => {
  window.addEventListener('hashchange', onChange);
  return () => window.removeEventListener('hashchange', onChange);
};
const readHash = () => window.location.hash;

/** The current route and a function to go elsewhere (which adds a history entry). */
export function useRoute(): [Route, (route: Route) => void] {
  const hash = useSyncExternalStore(subscribeHash, readHash);
  const navigate = useCallback((route: Route) => {
    const next = formatRoute(route);
    if (next !== window.location.hash) window.location.hash = next;
  }, []);
  return [parseRoute(hash), navigate];
}
