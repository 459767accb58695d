import type { GatehouseApi } from '../../shared/gatehouse-api';

declare global {
  interface Window {
    /** The admin API: from the preload in the desktop app, built over HTTP on the dashboard. */
    gatehouse?: GatehouseApi;
  }
}
