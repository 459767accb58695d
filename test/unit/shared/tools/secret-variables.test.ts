import { describe, expect, it } from 'vitest';
import { loadBashParser } from '../../../../shared/node/bash-parser';
import { namedSecretVariable, secretVariablesIn } from '../../../../shared/tools/secret-variables';

const parser = await loadBashParser();
const prints = (command: string): boolean => parser.analyse(command).printsEnvironment === true;

describe("Gatehouse's secret variables", () => {
  it('a command naming one is found however it spells the name', () => {
    for (const c of [
      'echo $GATEHOUSE_HUB_TOKEN',
      'echo ${GATEHOUSE_HUB_TOKEN:-x}',
      'printenv GATEHOUSE_HUB_TOK""EN',
      "printenv 'GATEHOUSE_HUB_'TOKEN",
      'printenv GATEHOUSE_HUB_\\TOKEN',
      'declare -p GATEHOUSE_HUB_DATABASE_URL',
    ])
      expect(namedSecretVariable(c), c).toMatch(/^GATEHOUSE_HUB_/);
    // One word to the parser, though no quote removal of the line spells it out.
    const ansi = "printenv GATEHOUSE_HUB_TOK$'E'N";
    expect(namedSecretVariable(ansi)).toBeUndefined();
    expect(namedSecretVariable(ansi, parser.analyse(ansi))).toBe('GATEHOUSE_HUB_TOKEN');
    for (const c of ['echo $GATEHOUSE_HOME', 'printenv HOME', 'echo $HUB_TOKEN'])
      expect(namedSecretVariable(c), c).toBeUndefined();
  });

  it('commands that print the whole environment are told apart from those that print one variable', () => {
    for (const c of [
      'env',
      'env -0',
      'env -u HOME',
      'env | grep X',
      'sudo env',
      'printenv',
      'printenv -0',
      'set',
      'export',
      'export -p',
      'declare',
      'declare -p',
      'declare -x',
      'typeset -p',
      'cd src && env',
      // A name computed as the line runs may be any variable's.
      "printenv GATEHOUSE_HUB_TOK$'\\x45'N",
      'printenv "$name"',
      'declare -p "$name"',
      'export -p $name',
      // jq's env and $ENV hold every variable (yq as its wrapper, or with env()).
      'jq -n env',
      "jq -n '$ENV'",
      `jq -rn 'env["GATEHOUSE_HUB_" + "TOKEN"]'`,
      "jq '.a + (env | keys)' x.json",
      "yq -n 'strenv(X)'",
      'yq -n \'"${X}" | envsubst\'',
    ])
      expect(prints(c), c).toBe(true);
    for (const c of [
      'env FOO=1 npm test',
      'env -u HOME node x.js',
      'printenv HOME',
      'set -e',
      'set -- a b',
      'export FOO=1',
      'export -p FOO',
      'declare -p FOO',
      'echo env',
      'npm run set',
      "jq '.config.env' x.json",
      "jq -r '.name' package.json",
    ])
      expect(prints(c), c).toBe(false);
  });

  it('the hook reports only the secret variables that are set', () => {
    expect(secretVariablesIn({ GATEHOUSE_HUB_TOKEN: 't', HOME: '/h' })).toEqual([
      'GATEHOUSE_HUB_TOKEN',
    ]);
    expect(secretVariablesIn({ GATEHOUSE_HUB_TOKEN: '' })).toEqual([]);
  });
});
