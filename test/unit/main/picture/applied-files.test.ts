import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APPLIED_LIMITS, appliedPictures } from '../../../../main/picture/applied-files';
import { appliedRefs } from '../../../../main/picture/applied-refs';
import { closedPaths, type ClosedCheck } from '../../../../main/picture/closed-paths';
import { placedCommands } from '../../../../main/picture/placed-commands';

let root: string;
let project: string;
let data: string;
let home: string;
let closed: ClosedCheck;
const TOKEN = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
const savedHome = process.env.HOME;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'gh-applied-'));
  project = join(root, 'project');
  data = join(root, 'gatehouse-home');
  home = join(root, 'home');
  for (const d of [join(project, 'k8s'), join(project, 'infra'), data, join(home, '.ssh')])
    mkdirSync(d, { recursive: true });
  writeFileSync(
    join(project, 'k8s', 'prod.yaml'),
    'kind: Deployment\nmetadata:\n  name: pay\nstringData:\n  password: hunter2-very-secret\n',
  );
  writeFileSync(join(project, 'k8s', 'svc.yml'), 'kind: Service\n');
  writeFileSync(join(project, 'k8s', 'notes.txt'), 'not a manifest\n');
  writeFileSync(join(project, 'infra', 'main.tf'), 'resource "aws_s3_bucket" "b" {}\n');
  writeFileSync(join(project, 'infra', 'plan.out'), Buffer.from([0x50, 0x4b, 3, 4, 0, 0]));
  writeFileSync(join(project, 'migrate.sql'), 'DROP TABLE users;\n');
  writeFileSync(join(project, 'compose.yaml'), 'services:\n  web:\n    image: nginx\n');
  writeFileSync(join(project, 'other.yml'), 'services:\n  db:\n    image: postgres\n');
  writeFileSync(join(project, '.env'), 'DB=postgres://u:p@h/db\n');
  writeFileSync(join(data, 'admin.token'), `${TOKEN}\n`);
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY BYTES\n');
  symlinkSync(join(data, 'admin.token'), join(project, 'token.yaml'));
  symlinkSync(data, join(project, 'linked'));
  execFileSync('mkfifo', [join(project, 'pipe.yaml')]);
  // The home the closed check compares with (the secrets and protected locations in it).
  process.env.HOME = home;
  closed = closedPaths([data]);
});

afterAll(() => {
  process.env.HOME = savedHome;
  rmSync(root, { recursive: true, force: true });
});

const applied = async (command: string, limits = APPLIED_LIMITS) =>
  appliedPictures(appliedRefs(await placedCommands(command, project)), closed, limits);

describe('files a command applies', () => {
  it('shows a kubectl manifest, secrets masked, and a folder of manifests', async () => {
    const [one] = await applied('kubectl apply -f k8s/prod.yaml --namespace prod');
    expect(one).toMatchObject({ by: 'kubectl apply', path: join(project, 'k8s', 'prod.yaml') });
    expect(one!.content).toContain('name: pay');
    expect(one!.content).toContain('password: hunt…[masked]');
    expect(JSON.stringify(one)).not.toContain('hunter2-very-secret');
    const folder = await applied('cd k8s && kubectl --context prod apply --filename=.');
    expect(folder.map((f) => f.path)).toEqual([
      join(project, 'k8s', 'prod.yaml'),
      join(project, 'k8s', 'svc.yml'),
    ]);
  });

  it('shows the terraform configuration, and names a saved plan without reading it', async () => {
    const [tf] = await applied('terraform -chdir=infra apply -auto-approve');
    expect(tf).toMatchObject({ by: 'terraform apply', path: join(project, 'infra', 'main.tf') });
    expect(tf!.content).toContain('aws_s3_bucket');
    const [plan] = await applied('cd infra && terraform apply plan.out');
    expect(plan).toEqual({
      by: 'terraform apply',
      path: join(project, 'infra', 'plan.out'),
      omitted: 'a saved plan (binary): `terraform show` prints it',
    });
  });

  it('shows a psql script and a compose file (named, or the default one)', async () => {
    for (const command of ['psql -h db -f migrate.sql', 'psql --file=migrate.sql mydb'])
      expect((await applied(command))[0]!.content).toBe('DROP TABLE users;\n');
    const [compose] = await applied('docker compose up -d');
    expect(compose).toMatchObject({ by: 'docker compose up', path: join(project, 'compose.yaml') });
    const named = await applied('docker compose -f other.yml up');
    expect(named.map((f) => f.content)).toEqual(['services:\n  db:\n    image: postgres\n']);
    expect(await applied('docker compose ps')).toEqual([]);
  });

  it("never reads Gatehouse's own files, secrets or keys, however the path reaches them", async () => {
    for (const command of [
      `kubectl apply -f ${join(data, 'admin.token')}`,
      'kubectl apply -f linked/admin.token',
      `cd ${data} && kubectl apply -f admin.token`,
      `psql -f ${join(data, '..', 'gatehouse-home', 'admin.token')}`,
      'kubectl apply -f token.yaml',
      'kubectl apply -f linked',
    ]) {
      const pictures = await applied(command);
      expect(pictures.length, command).toBeGreaterThan(0);
      expect(JSON.stringify(pictures), command).not.toContain(TOKEN);
      for (const p of pictures) {
        expect(p.content, command).toBeUndefined();
        expect(p.omitted, command).toMatch(/Gatehouse's own files|symbolic link/);
      }
    }
    const [key] = await applied('kubectl apply -f ~/.ssh/id_ed25519');
    expect(key!.omitted).toMatch(/^not read: /);
    expect(JSON.stringify(key)).not.toContain('PRIVATE KEY BYTES');
    const [env] = await applied('psql -f .env');
    expect(env!.omitted).toMatch(/^not read: an environment file/);
    expect(JSON.stringify(env)).not.toContain('postgres://');
  });

  it('leaves out what cannot be read safely or at all, and says why', async () => {
    const pictures = await applied(
      'kubectl apply -f - -f https://example.com/x.yaml -f pipe.yaml -f gone.yaml && cd $D && psql -f q.sql',
    );
    expect(pictures.map((p) => p.omitted)).toEqual([
      'read from standard input: not shown',
      'a URL: not fetched',
      'not a regular file',
      'not there (yet)',
      'its folder is not known (it runs after `cd $D`)',
    ]);
  });

  it('bounds the content of all the files together', async () => {
    const many = Array.from({ length: 12 }, () => `-f k8s/prod.yaml`).join(' ');
    const pictures = await applied(`kubectl apply ${many}`, {
      maxFileBytes: 100_000,
      maxTotalChars: 150,
      maxFiles: 10,
    });
    expect(pictures).toHaveLength(11);
    expect(pictures[0]!.content).toBeDefined();
    expect(pictures[1]!.omitted).toMatch(/^cut: \d+ more lines not shown$/);
    expect(pictures[2]!.omitted).toBe('not shown: the size limit of the picture is reached');
    expect(pictures[10]!.omitted).toBe('more than 10 files');
    const shown = pictures.reduce((n, p) => n + (p.content?.length ?? 0), 0);
    expect(shown).toBeLessThanOrEqual(150);
  });
});
