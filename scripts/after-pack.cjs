// electron-builder afterPack hook: flips Electron's fuses in the packed app, before signing
// (electron-builder signs after this hook, so the signature covers the flipped binary).
// https://www.electronjs.org/docs/latest/tutorial/fuses
//
// RunAsNode off                            ELECTRON_RUN_AS_NODE cannot turn the app into plain node
// EnableNodeOptionsEnvironmentVariable off NODE_OPTIONS cannot inject code
// EnableNodeCliInspectArguments off        --inspect cannot attach a debugger
// EnableEmbeddedAsarIntegrityValidation on app.asar must match the hash electron-builder embeds
//                                          (macOS and Windows; Linux ignores it)
// OnlyLoadAppFromAsar on                   the app loads from app.asar only, not a loose folder
// EnableCookieEncryption on                cookies on disk are encrypted with the OS keychain
'use strict';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- electron-builder loads hooks with require()
const path = require('node:path');

/** The fuse settings Gatehouse ships with, by @electron/fuses option name. */
const GATEHOUSE_FUSES = {
  RunAsNode: false,
  EnableCookieEncryption: true,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
};

/** Path @electron/fuses takes: the .app bundle on macOS, else the executable. */
function electronPath(context) {
  const { electronPlatformName, appOutDir, packager } = context;
  const product = packager.appInfo.productFilename;
  switch (electronPlatformName) {
    case 'darwin':
    case 'mas':
      return path.join(appOutDir, `${product}.app`);
    case 'win32':
      return path.join(appOutDir, `${product}.exe`);
    default:
      return path.join(appOutDir, packager.executableName);
  }
}

/** Flips {@link GATEHOUSE_FUSES} in one Electron binary (or .app bundle). */
async function flipGatehouseFuses(pathToElectron, { resetAdHocDarwinSignature = false } = {}) {
  // @electron/fuses is ESM-only; this hook is CommonJS because electron-builder requires it.
  const { flipFuses, FuseVersion, FuseV1Options } = await import('@electron/fuses');
  const config = { version: FuseVersion.V1, resetAdHocDarwinSignature };
  for (const [name, value] of Object.entries(GATEHOUSE_FUSES)) {
    if (!(name in FuseV1Options)) throw new Error(`unknown fuse ${name}`);
    config[FuseV1Options[name]] = value;
  }
  return flipFuses(pathToElectron, config);
}

async function afterPack(context) {
  const target = electronPath(context);
  // arm64 macOS refuses to run an unsigned binary; an ad-hoc signature keeps local builds
  // runnable when no signing identity is configured. (Arch 3 is arm64 in builder-util.)
  const resetAdHocDarwinSignature = context.electronPlatformName === 'darwin' && context.arch === 3;
  await flipGatehouseFuses(target, { resetAdHocDarwinSignature });
  console.log(`  • fuses flipped  file=${path.relative(process.cwd(), target)}`);
}

module.exports = afterPack;
module.exports.default = afterPack;
module.exports.flipGatehouseFuses = flipGatehouseFuses;
module.exports.electronPath = electronPath;
module.exports.GATEHOUSE_FUSES = GATEHOUSE_FUSES;
