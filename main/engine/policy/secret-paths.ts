/**
 * Common secrets: reading or changing them asks by default with risk high, unless
 * a rule of the user's allows it. Listed in docs/policy.md ("Protected and secret paths").
 */
const HOME_SECRETS: readonly { path: string; what: string }[] = [
  { path: '.ssh', what: 'an SSH key or config (~/.ssh)' },
  { path: '.aws', what: 'AWS credentials (~/.aws)' },
  { path: '.gnupg', what: 'a GnuPG key (~/.gnupg)' },
  { path: '.config/gcloud', what: 'Google Cloud credentials (~/.config/gcloud)' },
  { path: '.kube/config', what: 'a Kubernetes config (~/.kube/config)' },
  { path: '.docker/config.json', what: 'Docker registry credentials (~/.docker/config.json)' },
  { path: '.netrc', what: 'login credentials (~/.netrc)' },
  { path: '.git-credentials', what: "git's stored passwords and tokens (~/.git-credentials)" },
  { path: '.config/git/credentials', what: "git's stored passwords and tokens" },
  { path: '.config/gh/hosts.yml', what: "the GitHub CLI's token (~/.config/gh/hosts.yml)" },
  { path: '.npmrc', what: "npm's registry tokens (~/.npmrc)" },
  { path: '.yarnrc', what: "yarn's registry tokens (~/.yarnrc)" },
  { path: '.yarnrc.yml', what: "yarn's registry tokens (~/.yarnrc.yml)" },
  { path: '.config/pnpm/rc', what: "pnpm's registry tokens (~/.config/pnpm/rc)" },
  { path: '.bunfig.toml', what: "bun's registry tokens (~/.bunfig.toml)" },
  { path: '.pypirc', what: 'Python package index credentials (~/.pypirc)' },
  { path: '.cargo/credentials.toml', what: "Cargo's registry token" },
  { path: '.cargo/credentials', what: "Cargo's registry token" },
  { path: '.vault-token', what: "HashiCorp Vault's token (~/.vault-token)" },
  { path: '.terraform.d/credentials.tfrc.json', what: "Terraform's registry tokens" },
  { path: '.azure', what: 'Azure credentials (~/.azure)' },
  { path: '.m2/settings.xml', what: "Maven's server passwords (~/.m2/settings.xml)" },
  { path: '.gradle/gradle.properties', what: "Gradle's credentials (~/.gradle/gradle.properties)" },
  { path: '.composer/auth.json', what: "Composer's tokens (~/.composer/auth.json)" },
  { path: '.config/composer/auth.json', what: "Composer's tokens" },
  { path: '.config/hub', what: "the hub CLI's GitHub token (~/.config/hub)" },
];

/** `.env`, `.env.local`, … but not the committed templates. */
const ENV_FILE = /^\.env(?!\.(example|sample|template)$)/;

/** The table's paths, and each with a slash after it, as compared with and without case. */
const ENTRIES = [false, true].map((ci) =>
  HOME_SECRETS.map((s) => {
    const rel = ci ? s.path.toLowerCase() : s.path;
    return { rel, under: `${rel}/`, what: s.what };
  }),
);

/** The last home asked about, normalised: every call of a daemon passes the same one. */
let lastHome: { home: string; ci: boolean; prefix: string } | undefined;
function homePrefix(home: string, ci: boolean): string {
  if (lastHome?.home === home && lastHome.ci === ci) return lastHome.prefix;
  const h = home.replace(/\\/g, '/').replace(/\/+$/, '');
  const prefix = `${ci ? h.toLowerCase() : h}/`;
  lastHome = { home, ci, prefix };
  return prefix;
}

/** What kind of secret `path` (absolute, forward slashes) is, or undefined. */
export function secretKind(
  path: string,
  home: string,
  caseInsensitive: boolean,
): string | undefined {
  const p = caseInsensitive ? path.toLowerCase() : path;
  // Only a path under the home can be one of the home's secrets: one test, then the table.
  const prefix = homePrefix(home, caseInsensitive);
  if (p.startsWith(prefix)) {
    const rel = p.slice(prefix.length);
    for (const s of ENTRIES[caseInsensitive ? 1 : 0]!)
      if (rel === s.rel || rel.startsWith(s.under)) return s.what;
  }
  return secretNameKind(p.slice(p.lastIndexOf('/') + 1));
}

/** An SSH private key by its usual name (`id_rsa`, `id_ed25519_deploy`), not its `.pub`. */
const SSH_KEY_FILE = /^id_(rsa|dsa|ecdsa|ed25519)(_sk)?([_.-][^/]*)?$/;
/** Files of passwords by their usual names, wherever they are (a project's own `.netrc`). */
const PASSWORD_FILES = new Set(['.netrc', '.htpasswd', '.pgpass']);

/**
 * What kind of secret a file of this name is wherever it is (`.env`, `*.pem`, `*.key`, an
 * SSH private key, a key store, a password file): a deploy key kept in a project is read as
 * `~/.ssh/id_rsa` is.
 */
export function secretNameKind(name: string): string | undefined {
  if (ENV_FILE.test(name)) return 'an environment file (.env*), which usually holds secrets';
  if (name.endsWith('.pem')) return 'a PEM certificate or key (*.pem)';
  if (name.endsWith('.key')) return 'a key file (*.key)';
  if (SSH_KEY_FILE.test(name) && !name.endsWith('.pub')) return 'an SSH private key (id_*)';
  if (/\.(p12|pfx|jks|keystore|ppk)$/.test(name))
    return 'a key store or private key (*.p12, *.pfx, *.jks, *.keystore, *.ppk)';
  if (PASSWORD_FILES.has(name)) return `a password file (${name})`;
  if (/\.tfstate(\.backup)?$/.test(name))
    return "Terraform's state (*.tfstate), which holds the secrets of what it manages in clear";
  return undefined;
}
