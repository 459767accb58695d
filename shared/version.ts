declare const __GATEHOUSE_VERSION__: string | undefined;

/** The package version, injected by the build; tests running from source see `-dev`. */
export const VERSION: string =
  typeof __GATEHOUSE_VERSION__ === 'string' ? __GATEHOUSE_VERSION__ : '0.1.0-dev';
