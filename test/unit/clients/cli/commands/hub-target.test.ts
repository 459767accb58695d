import { describe, expect, it } from 'vitest';
import { signInCode } from '../../../../../clients/cli/commands/hub-login';
import { commandClassifier } from '../../../../support/command-verdict';

describe('the CLI against a hub, seen from an agent', () => {
  it('running `gatehouse --hub URL …` asks, critical, whatever the sub-command', async () => {
    const { verdict } = await commandClassifier();
    for (const command of [
      'gatehouse --hub https://hub.example approve req_1',
      'gatehouse --hub=https://hub.example deny req_1 --reason x',
      'GATEHOUSE_HUB_TOKEN=ghp_x gatehouse --hub http://127.0.0.1:7230 list',
      'npx gatehouse --hub http://hub review',
      'gatehouse hub login https://hub.example --token ghp_x',
    ]) {
      const v = verdict(command);
      expect(v.tier, command).toBe('ask');
      expect(
        v.candidates.some((c) => c.verdict.risk === 'critical'),
        command,
      ).toBe(true);
    }
  });

  it('takes the sign-in code from the code itself or from the whole link', () => {
    expect(signInCode('  abcdefghijklmnopqrstuvwx ')).toBe('abcdefghijklmnopqrstuvwx');
    expect(signInCode('https://hub/sign-in#code=abc123')).toBe('abc123');
    expect(signInCode('https://hub/sign-in?code=abc123')).toBe('abc123');
    expect(signInCode('https://hub/sign-in/abc123')).toBe('abc123');
  });
});
