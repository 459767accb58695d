/**
 * Common secrets (issue 9): reading or changing them asks by default with risk high, unless
 * a rule of the user's allows it. Listed in README ("Protected and secret paths").
 */
const HOME_SECRETS: readonly { path: string; what: string }[] = [
  { path: '.ssh', what: 'an SSH key or config (~/.ssh)' },
  { path: '.aws', what: 'AWS credentials (~/.aws)' },
  { path: '.gnupg', what: 'a GnuPG key (~/.gnupg)' },
  { path: '.config/gcloud', what: 'Google Cloud credentials (~/.config/gcloud)' },
  { path: '.kube/config', what: 'a Kubernetes config (~/.kube/config)' },
  { path: '.docker/config.json', what: 'Docker registry credentials (~/.docker/config.json)' },
  { path: '.netrc', what: 'login credentials (~/.netrc)' },
];

/** `.env`, `.env.local`, … but not the committed templates. */
const ENV_FILE = /^\.env(?!\.(example|sample|template)$)/;

/** What kind of secret `path` (absolute, forward slashes) is, or undefined. */
export function secretKind(
  path: string,
  home: string,
  caseInsensitive: boolean,
): string | undefined {
  const fold = (s: string) => (caseInsensitive ? s.toLowerCase() : s);
  const p = fold(path);
  const h = fold(home.replace(/\\/g, '/').replace(/\/+$/, ''));
  for (const s of HOME_SECRETS) {
    const root = `${h}/${fold(s.path)}`;
    if (p === root || p.startsWith(`${root}/`)) return s.what;
  }
  const name = p.slice(p.lastIndexOf('/') + 1);
  if (ENV_FILE.test(name)) return 'an environment file (.env*), which usually holds secrets';
  if (/\.pem$/.test(name)) return 'a PEM certificate or key (*.pem)';
  if (/\.key$/.test(name)) return 'a key file (*.key)';
  return undefined;
}
