import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { withCodexSandbox } from '../../../../clients/hooks/codex/sandbox-config';

const edited = (text: string) => {
  const r = withCodexSandbox(text);
  if ('unchanged' in r) throw new Error(r.unchanged);
  return { ...r, config: parse(r.text) as Record<string, Record<string, unknown> | string> };
};

describe("Codex's sandbox settings written by the install", () => {
  it('adds workspace-write and no network, keeping comments, keys and tables', () => {
    const text = '# mine\nmodel = "gpt-5"\n\n[model_providers.x]\nname = "X"\n';
    const r = edited(text);
    expect(r.config.sandbox_mode).toBe('workspace-write');
    expect(r.config.sandbox_workspace_write).toEqual({ network_access: false });
    expect(r.config.model_providers).toEqual({ x: { name: 'X' } });
    expect(r.text).toContain('# mine\nmodel = "gpt-5"');
    expect(edited('').config.sandbox_mode).toBe('workspace-write');
  });

  it("keeps the person's own mode and network choice, and fills in only what is missing", () => {
    const own = edited(
      'sandbox_mode = "read-only"\n[sandbox_workspace_write]\nnetwork_access = true\n',
    );
    expect(own.changed).toEqual([]);
    const partial = edited('[sandbox_workspace_write] # theirs\nwritable_roots = ["/srv"]\n');
    expect(partial.config.sandbox_workspace_write).toEqual({
      writable_roots: ['/srv'],
      network_access: false,
    });
  });

  it('leaves a file that does not parse alone', () => {
    expect(withCodexSandbox('model = \n[[')).toHaveProperty('unchanged');
  });
});
