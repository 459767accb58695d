import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unionOfTables } from '../../../../main/engine/admin-api';
import { adminMethods } from '../../../../shared/protocol/method-map';
import { EngineHarness } from '../../../support/engine-harness';

/** The admin methods served outside the engine (main/server, main/remote, main/store). */
const OUTSIDE_THE_ENGINE = [
  'status',
  'request.link',
  'ntfy.setup',
  'notifications.test',
  'chat.pause',
  'chat.telegramChats',
  'chat.telegramUse',
  'retention.prune',
  'audit.verify',
  'audit.verifyHub',
  'audit.exportSignature',
  'audit.key',
];

describe("the engine's admin table", () => {
  let h: EngineHarness;
  beforeEach(() => (h = new EngineHarness()));
  afterEach(() => h.close());

  it('is the union of the capabilities’ tables: every other method of the map, once', () => {
    expect(Object.keys(h.engine.admin.table).sort()).toEqual(
      Object.keys(adminMethods)
        .filter((m) => !OUTSIDE_THE_ENGINE.includes(m))
        .sort(),
    );
  });

  it('refuses two tables that handle one method', () => {
    const one = { 'rules.list': () => ({ rules: [] }) };
    const other = { 'rules.list': () => ({ rules: [] }), 'rules.add': () => undefined };
    expect(() => unionOfTables(one, other)).toThrow('two admin tables handle rules.list');
    expect(Object.keys(unionOfTables(one, { 'rules.add': () => undefined }))).toEqual([
      'rules.list',
      'rules.add',
    ]);
  });
});
