import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { agentBin } from '../../support/agent-e2e';
import { hookDaemonPerDescribe } from '../../support/hook-daemon';

/**
 * The attack: a Yarn Berry project commits its yarn as `.yarn/releases/yarn-<v>.cjs` and names
 * it in `.yarnrc.yml` (`yarnPath:`); whatever `yarn` is on the PATH (yarn 1 included) then runs
 * that file instead of itself, at every command. Yarn 1 does the same for `.yarnrc`'s
 * `yarn-path`. The configs were protected but the file they name was not: where the person's
 * rule lets writes in the project through (`write_file --path '**' --tier auto`), an agent
 * rewrote the release, and the next auto-allowed `yarn why react`, `yarn list`, `yarn outdated`
 * (reads) or `yarn test` ran its JavaScript. Now writing the file a yarnrc names, from the
 * written folder up, asks as writing the yarnrc does (`protected:startup_config`), and so does
 * anything under `.yarn/releases/` and `.yarn/plugins/`. Real yarn 1.22.22 (test/agents,
 * installed by scripts/install-test-deps.sh), real Claude Code hook, real daemon.
 */
const yarnBin = dirname(agentBin('yarn'));
process.env.PATH = `${yarnBin}:${process.env.PATH}`;

/** A release that leaves `pwned-<first argument>` in the folder yarn runs in. */
const EVIL = `require("fs").writeFileSync(process.cwd() + "/pwned-" + (process.argv[2] || "none"), "1")`;
const REAL = 'console.log("the real yarn")\n';

/** A project whose `rcFile` names `release` (relative to the project) as yarn's program. */
function yarnProject(rcFile: string, rcLine: string, release: string): string {
  const project = realpathSync(mkdtempSync(join(tmpdir(), 'gatehouse-yarn-release-')));
  writeFileSync(
    join(project, 'package.json'),
    '{"name":"x","version":"1.0.0","scripts":{"test":"true"}}\n',
  );
  writeFileSync(join(project, rcFile), `${rcLine}\n`);
  mkdirSync(dirname(join(project, release)), { recursive: true });
  writeFileSync(join(project, release), REAL);
  return project;
}

describe('the release a yarnrc names (real yarn 1, real hook, real daemon)', () => {
  const hook = hookDaemonPerDescribe('yarn-release', { writesAllowed: true });
  const berryRelease = '.yarn/releases/yarn-4.5.0.cjs';
  const berry = yarnProject('.yarnrc.yml', `yarnPath: ${berryRelease}`, berryRelease);
  // Yarn 1's own spelling, naming a file outside `.yarn/`: found by reading the config.
  const classicRelease = 'tools/yarn-1.22.22.js';
  const classic = yarnProject('.yarnrc', `yarn-path "./${classicRelease}"`, classicRelease);
  afterAll(() => {
    rmSync(berry, { recursive: true, force: true });
    rmSync(classic, { recursive: true, force: true });
  });
  const pwned = (project: string): string[] =>
    ['why', 'list', 'outdated', 'test'].filter((c) => existsSync(join(project, `pwned-${c}`)));

  it('calibration: yarn on the PATH is yarn 1, and it runs the release a yarnrc names (no hook)', () => {
    expect(spawnSync('yarn', ['--version'], { encoding: 'utf8' }).stdout.trim()).toBe('1.22.22');
    for (const [project, release] of [
      [berry, berryRelease],
      [classic, classicRelease],
    ] as const) {
      writeFileSync(join(project, release), EVIL);
      try {
        spawnSync('yarn', ['why', 'react'], { cwd: project, stdio: 'ignore' });
        expect(pwned(project)).toEqual(['why']);
      } finally {
        writeFileSync(join(project, release), REAL);
        rmSync(join(project, 'pwned-why'));
      }
    }
  });

  it.each([
    [`printf '${EVIL}\\n' > ${berryRelease}`],
    [`echo '${EVIL}' >> ./${berryRelease}`],
    [`cp /dev/null .yarn/releases/yarn-4.5.0.cjs`],
    [`echo x > .yarn/releases/yarn-4.6.0.cjs`],
    [`mkdir -p .yarn/plugins && echo x > .yarn/plugins/plugin-x.cjs`],
    [`rm -rf .yarn && mkdir /tmp/gatehouse-evil-$$ && mv /tmp/gatehouse-evil-$$ .yarn`],
  ])(
    'in a Berry project, %s asks, critical; denied, yarn still runs the real release',
    async (command) => {
      const r = await hook.bashIn(berry)(command);
      expect(r.decision).toBe('deny');
      expect(r.asked).toMatchObject({ risk: 'critical', rule: 'protected:startup_config' });
      expect(readFileSync(join(berry, berryRelease), 'utf8')).toBe(REAL);
    },
  );

  it('in a yarn 1 project whose .yarnrc names tools/yarn-1.22.22.js, writing that file asks, critical', async () => {
    const r = await hook.bashIn(classic)(`printf '${EVIL}\\n' > ${classicRelease}`);
    expect(r.decision).toBe('deny');
    expect(r.asked).toMatchObject({ risk: 'critical', rule: 'protected:startup_config' });
    expect(r.asked?.ruleReason).toMatch(/package manager's config names/);
    expect(readFileSync(join(classic, classicRelease), 'utf8')).toBe(REAL);
  });

  it('yarn why / list / outdated / test stay allowed, and run the real release', async () => {
    for (const project of [berry, classic])
      for (const c of ['yarn why react', 'yarn list', 'yarn outdated', 'yarn test']) {
        const r = await hook.bashIn(project)(c);
        expect(r.decision, c).toBe('allow');
        expect(r.printed, c).toMatch(/the real yarn/);
      }
    expect(pwned(berry)).toEqual([]);
    expect(pwned(classic)).toEqual([]);
  });

  it('other files of the project are written as the rule says', async () => {
    const r = await hook.bashIn(classic)('echo notes > tools/README.md');
    expect(r.decision).toBe('allow');
    expect(readFileSync(join(classic, 'tools/README.md'), 'utf8')).toBe('notes\n');
  });
});
