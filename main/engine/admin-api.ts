import type { AdminMethod, AdminParsedParams } from '../../shared/protocol/method-map';
import type { controlsAdmin } from './controls/admin-controls';
import type { guardsAdmin } from './guards/admin-guards';
import type { auditAdmin } from './kernel/admin-audit';
import type { pictureAdmin } from './picture/admin-picture';
import type { settingsAdmin } from './kernel/admin-settings';
import type { rulesAdmin } from './policy/admin-rules';
import type { trustAdmin } from './policy/admin-trust';
import type { requestsAdmin } from './requests/admin-requests';
import type { EngineStatus } from './requests/queue-status';
import type { sessionsAdmin } from './sessions/admin-sessions';

export type { EngineStatus } from './requests/queue-status';

/**
 * The engine's admin methods: the union of the capabilities' admin tables. Each table
 * `satisfies` the method map for its own methods (a method the map lacks fails to compile);
 * the admin service checks that the union and its own handlers cover the whole map.
 */
export type EngineAdminTable = ReturnType<typeof requestsAdmin> &
  ReturnType<typeof sessionsAdmin> &
  ReturnType<typeof controlsAdmin> &
  ReturnType<typeof rulesAdmin> &
  ReturnType<typeof trustAdmin> &
  ReturnType<typeof guardsAdmin> &
  ReturnType<typeof settingsAdmin> &
  ReturnType<typeof auditAdmin> &
  ReturnType<typeof pictureAdmin>;

export type EngineAdminMethod = keyof EngineAdminTable & AdminMethod;

/** The intersection of a union's members. */
type Joined<U> = (U extends unknown ? (u: U) => void : never) extends (j: infer J) => void
  ? J
  : never;

/**
 * The capabilities' admin tables as one. A method two tables both handle is refused as the
 * engine is built (a spread would silently keep the last).
 */
export function unionOfTables<T extends object[]>(...tables: T): Joined<T[number]> {
  const union: Record<string, unknown> = {};
  for (const table of tables) {
    for (const [method, handler] of Object.entries(table)) {
      if (method in union) throw new Error(`two admin tables handle ${method}`);
      union[method] = handler;
    }
  }
  return union as Joined<T[number]>;
}

export interface AdminApiParts {
  table: EngineAdminTable;
  status: () => EngineStatus;
  waitingAgents: (requestId: string) => number;
}

/**
 * The engine's admin side: everything a person does or looks at, whatever the transport
 * (socket admin role, Electron IPC, dashboard HTTP). Each method takes the admin method's
 * validated params and answers with its result; each change runs in the engine's unit of
 * work with its audit entries, cache updates and effects. The handlers live with their
 * capabilities (admin-*.ts); this only holds their union.
 */
export class AdminApi {
  /** One handler per engine admin method, as the admin service routes them. */
  readonly table: EngineAdminTable;

  constructor(private readonly parts: AdminApiParts) {
    this.table = parts.table;
  }

  /** Calls one admin method with its validated params (tests and in-process callers). */
  call<K extends EngineAdminMethod>(
    method: K,
    params: AdminParsedParams<K>,
  ): ReturnType<EngineAdminTable[K]> {
    // The table's handler for K takes K's params: TypeScript cannot follow a generic key.
    const handler = this.table[method] as unknown as (
      p: AdminParsedParams<K>,
    ) => ReturnType<EngineAdminTable[K]>;
    return handler(params);
  }

  /** What the engine knows for `status` (the process facts are the transport's to add). */
  status(): EngineStatus {
    return this.parts.status();
  }

  /** How many agent calls are blocked right now on this request's decision. */
  waitingAgents(requestId: string): number {
    return this.parts.waitingAgents(requestId);
  }
}
