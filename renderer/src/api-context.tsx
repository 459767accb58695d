import { createContext, useContext, type ReactNode } from 'react';
import type { GatehouseApi } from '../../shared/gatehouse-api';

const ApiContext = createContext<GatehouseApi | undefined>(undefined);

/** Hands `window.gatehouse` to the tree, so views are testable with any API object. */
export function ApiProvider({ api, children }: { api: GatehouseApi; children: ReactNode }) {
  return <ApiContext.Provider value={api}>{children}</ApiContext.Provider>;
}

export function useApi(): GatehouseApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside ApiProvider');
  return api;
}
