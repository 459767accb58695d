import { describe, expect, it } from 'vitest';
import { freshSecret } from '../../../../main/hub/hub-service';

describe("the hub's fresh secrets", () => {
  it('never start with "-", which a command line would read as an option', () => {
    // One base64url secret in 64 starts with "-": 5,000 draws would hold about 78 of them.
    const secrets = Array.from({ length: 5_000 }, freshSecret);
    expect(secrets.filter((s) => s.startsWith('-'))).toEqual([]);
    expect(new Set(secrets).size).toBe(secrets.length);
    for (const s of secrets.slice(0, 50)) expect(s).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{31}$/);
  });
});
