import type { ControlsStore } from './controls/controls-store';
import type { GuardsStore } from './guards/guards-store';
import type { AuditReadStore, SettingsStore, WorkStore } from './kernel/kernel-store';
import type { PicturesStore } from './picture/pictures-store';
import type { PolicyStore } from './policy/policy-store';
import type { RequestsStore } from './requests/requests-store';
import type { SessionsStore } from './sessions/sessions-store';

/**
 * The engine's storage: one narrow port per capability (each lists only the methods its
 * capability uses), plus the unit of work's and the settings'. Implemented over
 * better-sqlite3 by main/store/sqlite-engine-stores.ts, one object per port built straight
 * from the repositories; the engine is the only writer.
 */
export interface EngineStores {
  work: WorkStore;
  settings: SettingsStore;
  audit: AuditReadStore;
  requests: RequestsStore;
  sessions: SessionsStore;
  policy: PolicyStore;
  controls: ControlsStore;
  guards: GuardsStore;
  pictures: PicturesStore;
}
