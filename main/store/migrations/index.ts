import type { Migration } from './migration';
import { migration001 } from './001_init';
import { migration002 } from './002_guards';
import { migration003 } from './003_plain_keys';
import { migration004 } from './004_request_keys';
import { migration005 } from './005_request_audit_seq';
import { migration006 } from './006_policy_trust';
import { migration007 } from './007_rule_matchers';
import { migration008 } from './008_rule_suggestions';
import { migration009 } from './009_decision_links';
import { migration010 } from './010_list_indexes';
import { migration011 } from './011_session_requests_index';
import { migration012 } from './012_transcript_files_owed';
import { migration013 } from './013_run_input_changes';
import { migration014 } from './014_session_subset_indexes';
import { migration015 } from './015_hub_outbox';
import { migration016 } from './016_human_decisions_covering';
import { migration017 } from './017_chat_buttons';
import { migration018 } from './018_request_pictures';
import { migration019 } from './019_request_key_tables';
import { migration020 } from './020_audit_chain';
import { migration021 } from './021_team_policy';
import { migration022 } from './022_masked_tool_inputs';
import { migration023 } from './023_hub_rule_offers';
import { migration024 } from './024_masked_hub_outbox';
import { migration025 } from './025_queue_order_index';
import { migration026 } from './026_decision_patterns';

export type { Migration } from './migration';

/** Every migration, in version order. Add new ones at the end; never edit a released one. */
export const migrations: readonly Migration[] = [
  migration001,
  migration002,
  migration003,
  migration004,
  migration005,
  migration006,
  migration007,
  migration008,
  migration009,
  migration010,
  migration011,
  migration012,
  migration013,
  migration014,
  migration015,
  migration016,
  migration017,
  migration018,
  migration019,
  migration020,
  migration021,
  migration022,
  migration023,
  migration024,
  migration025,
  migration026,
];
