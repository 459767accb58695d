import type { RuleRecord } from '../../../shared/domain';
import { notFound } from '../../../shared/protocol/errors';
import { iso } from '../../../shared/clock';
import type { IdSource } from '../kernel/ids';
import { compact } from '../kernel/records';
import type { RulesStore } from './policy-store';
import type { Unit, UnitOfWork } from '../kernel/unit-of-work';

/** User rules that promote or demote actions, cached for classification. */
export class RuleBook {
  private rules: RuleRecord[];

  constructor(
    private readonly store: RulesStore,
    private readonly work: UnitOfWork,
    private readonly ids: IdSource,
  ) {
    this.rules = store.listRules();
    // A rule added by a unit that rolls back (an "always" whose commit failed) must not
    // keep approving: the list follows the database.
    work.onRollback(() => (this.rules = store.listRules()));
  }

  list(): readonly RuleRecord[] {
    return this.rules;
  }

  /** Adds a rule inside an ongoing unit of work (an "always" decision) or its own. */
  addIn(u: Unit, input: Omit<RuleRecord, 'ruleId' | 'createdAt'>): RuleRecord {
    const rule: RuleRecord = compact({ ...input, ruleId: this.ids('rul'), createdAt: iso(u.now) });
    this.store.insertRule(rule);
    u.audit('rule.added', { data: { ...rule } });
    this.rules = [...this.rules, rule];
    u.publish({ type: 'rules.changed', rules: this.rules });
    return rule;
  }

  add(input: Omit<RuleRecord, 'ruleId' | 'createdAt'>): RuleRecord {
    return this.work.run((u) => this.addIn(u, input));
  }

  remove(ruleId: string): void {
    this.work.run((u) => {
      if (!this.store.deleteRule(ruleId)) throw notFound(`rule ${ruleId}`);
      u.audit('rule.removed', { data: { ruleId } });
      this.rules = this.store.listRules();
      u.publish({ type: 'rules.changed', rules: this.rules });
    });
  }
}
