import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Where the Electron build of better-sqlite3's addon is. Electron runs its own Node ABI, so the
 * plain-Node build in node_modules (used by tests and headless mode) does not load in it.
 *
 * - Packaged app: electron-builder rebuilds native modules for Electron before packing
 *   (`npmRebuild` + `buildDependenciesFromSource` in electron-builder.yml) and `asarUnpack`
 *   keeps the `.node` file outside the archive, at
 *   `resources/app.asar.unpacked/node_modules/better-sqlite3/build/Release/better_sqlite3.node`.
 *   That rebuild happens in place in the project's node_modules, so run
 *   `npm rebuild better-sqlite3` after `npm run dist` to get the plain-Node build back.
 * - Development (`electron .` from a checkout): build the addon for Electron into
 *   `build/electron-native/better_sqlite3.node` without touching node_modules:
 *   ```sh
 *   cp -r node_modules/better-sqlite3 /tmp/bs3-electron && cd /tmp/bs3-electron &&
 *   npx node-gyp rebuild --runtime=electron --dist-url=https://electronjs.org/headers \
 *     --target=$(node -p "require('electron/package.json').version") && cd - &&
 *   mkdir -p build/electron-native && cp /tmp/bs3-electron/build/Release/better_sqlite3.node build/electron-native/
 *   ```
 * - `GATEHOUSE_SQLITE_BINDING` names any other file and wins over both.
 *
 * Returns undefined when none exists: better-sqlite3 then looks in node_modules itself.
 */
export function resolveNativeBinding(options: {
  isPackaged: boolean;
  /** `process.resourcesPath` */
  resourcesPath: string;
  /** `app.getAppPath()`: the folder (or app.asar) holding package.json. */
  appPath: string;
  env: NodeJS.ProcessEnv;
  exists?: (path: string) => boolean;
}): string | undefined {
  const exists = options.exists ?? existsSync;
  if (options.env.GATEHOUSE_SQLITE_BINDING) return options.env.GATEHOUSE_SQLITE_BINDING;
  const candidate = options.isPackaged
    ? join(options.resourcesPath, 'app.asar.unpacked', ADDON)
    : join(options.appPath, 'build', 'electron-native', 'better_sqlite3.node');
  return exists(candidate) ? candidate : undefined;
}

const ADDON = join('node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
