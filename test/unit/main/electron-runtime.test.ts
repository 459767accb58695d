import { describe, expect, it } from 'vitest';
import { findElectronRuntime } from '../../../main/electron-runtime';

const moduleNotFound = (): never => {
  throw Object.assign(new Error("Cannot find module 'electron'\nRequire stack:\n- /x/start.js"), {
    code: 'MODULE_NOT_FOUND',
  });
};

describe('npm start without the Electron runtime', () => {
  it('says what a missing electron package means and what to do, in one line', () => {
    const { path, why } = findElectronRuntime(moduleNotFound);
    expect(path).toBeUndefined();
    expect(why).toMatch(/^the Electron runtime is not installed \(it is optional; /);
    expect(why).toContain('npm install electron');
    expect(why).not.toMatch(/Cannot find module|\n/);
  });

  it('says the binary was not downloaded when the package is there without it', () => {
    const failedInstall = (): never => {
      throw new Error('Electron failed to install correctly, please delete node_modules/electron');
    };
    expect(findElectronRuntime(failedInstall).why).toMatch(
      /^the Electron binary was not downloaded/,
    );
    expect(
      findElectronRuntime(
        () => '/nowhere/electron',
        () => false,
      ).why,
    ).toMatch(/^the Electron binary was not downloaded/);
  });

  it('finds the binary when it is there', () => {
    expect(
      findElectronRuntime(
        () => '/opt/electron',
        () => true,
      ),
    ).toEqual({ path: '/opt/electron' });
  });
});
