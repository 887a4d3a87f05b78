//! The datasets `parity` writes, declared once (the data docs are generated
//! from these declarations).

use crate::data::{Column, Dataset, Dtype, Role};
use crate::game::OUTCOME_COLUMN;
use crate::period::PERIOD_COLUMNS;

/// The variants.
pub const VARIANTS: &[&str] = &["sides", "odd_wins"];
/// Players as the data name them: Odd and Even (`sides`), the hands' holders
/// A and B (`odd_wins` positions), the mover and the other player (`odd_wins`).
pub const PLAYERS: &[&str] = &["odd", "even", "a", "b", "mover", "other"];
/// Classes of a state (which player it is safe for).
pub const STATE_CLASSES: &[&str] = &[
    "absolute_odd",
    "absolute_even",
    "absolute_a",
    "absolute_b",
    "absolute_mover",
    "absolute_other",
    "common",
    "neither",
];
/// The sides a safe state list is about.
pub const SIDES: &[&str] = &["odd", "even", "player"];
/// Kinds of safe state.
pub const KINDS: &[&str] = &["absolute", "common"];
/// Verdicts on report 001's claims.
pub const VERDICTS: &[&str] = &["holds", "fails", "no claim"];
/// Yes or no.
pub const YES_NO: &[&str] = &["yes", "no"];

/// The rule, on every row of every parity dataset.
pub static RULE: &[Column] = &[
    Column::new(
        "variant",
        Dtype::Enum(VARIANTS),
        Role::Param,
        "`sides` (an Odd player against an Even player) or `odd_wins` (whoever holds an odd number wins)",
    ),
    Column::new(
        "take",
        Dtype::Cat,
        Role::Param,
        "the take set as written (accepted back by `nimlab solve parity --take`): `max:3`, `set:1,3,4`",
    ),
    Column::new(
        "k",
        Dtype::Int,
        Role::Param,
        "the largest take (report 001's k)",
    ),
];

static TAKE_SET: &[Column] = &[Column::new(
    "take_set",
    Dtype::IntList,
    Role::Param,
    "every allowed take",
)];

/// The key of an outcome row: the pile, the hand parities and the mover.
static OUTCOME_KEY: &[Column] = &[
    Column::new("r", Dtype::Int, Role::Position, "stones left in the pile"),
    Column::new(
        "a_parity",
        Dtype::Int,
        Role::Position,
        "parity (0 or 1) of the first hand: Odd's in `sides`, the mover's in `odd_wins`",
    ),
    Column::new(
        "b_parity",
        Dtype::Int,
        Role::Position,
        "parity of the second hand: Even's in `sides`, the other player's in `odd_wins`",
    ),
    Column::new(
        "mover",
        Dtype::Enum(PLAYERS),
        Role::Position,
        "the player to move",
    ),
];

static OUTCOME_ROW: &[Column] = &[
    Column::new(
        "winner",
        Dtype::Enum(PLAYERS),
        Role::Result,
        "who wins with perfect play",
    ),
    OUTCOME_COLUMN,
    Column::new(
        "winning_takes",
        Dtype::IntList,
        Role::Result,
        "the takes that win for the mover (empty when the mover loses)",
    ),
    Column::new(
        "state_class",
        Dtype::Enum(STATE_CLASSES),
        Role::Result,
        "whom the state is safe for, whoever moves: `absolute_<player>` (that player wins whoever moves), `common` (whoever moves loses), `neither` (whoever moves wins)",
    ),
];

/// `outcome`: one row per pile size, hand parities and mover.
pub static OUTCOME: Dataset = Dataset {
    name: "outcome",
    doc: "One row per pile size r, hand parities and mover: who wins and how.",
    groups: &[RULE, OUTCOME_KEY, OUTCOME_ROW],
};

static REMOTENESS_ROW: &[Column] = &[
    OUTCOME_COLUMN,
    Column::new(
        "remoteness",
        Dtype::Int,
        Role::Result,
        "moves left to the end of the game with perfect play (Smith's remoteness): the winner ends it as fast as possible, the loser delays it as long as possible; 0 at an empty pile",
    ),
];

/// `remoteness`: keyed like `outcome`, written only when asked for.
pub static REMOTENESS: Dataset = Dataset {
    name: "remoteness",
    doc: "One row per pile size r, hand parities and mover, as `outcome`: how many moves the game lasts with perfect play. Written only when the sweep's `datasets:` lists it or a conjecture of its spec reads it.",
    groups: &[RULE, OUTCOME_KEY, REMOTENESS_ROW],
};

/// The datasets written only when a spec asks for them (see
/// [`crate::family::Capabilities::on_request`]).
pub static ON_REQUEST: &[&str] = &["remoteness"];

static SAFE_STATE: &[Column] = &[
    Column::new(
        "side",
        Dtype::Enum(SIDES),
        Role::Param,
        "whose safe states these are",
    ),
    Column::new(
        "a_parity",
        Dtype::Int,
        Role::Position,
        "parity of the first hand",
    ),
    Column::new(
        "b_parity",
        Dtype::Int,
        Role::Position,
        "parity of the second hand",
    ),
    Column::new(
        "r_mod",
        Dtype::Int,
        Role::Position,
        "the pile size modulo M",
    ),
    Column::new(
        "M",
        Dtype::Int,
        Role::Result,
        "the modulus: the minimal period of the outcome table in r",
    ),
    Column::new(
        "preperiod",
        Dtype::Int,
        Role::Result,
        "first pile size from which the pattern repeats",
    ),
    Column::new(
        "state",
        Dtype::Str,
        Role::Result,
        "the state in the article's form, `(0,1,4n+3)`",
    ),
    Column::new(
        "kind",
        Dtype::Enum(KINDS),
        Role::Result,
        "`absolute` (safe whoever moves) or `common`",
    ),
];

/// `safe_states`: one row per safe state in periodic form.
pub static SAFE_STATES: Dataset = Dataset {
    name: "safe_states",
    doc: "One row per safe state (a, b, r mod M) of a side: after moving there, that side wins.",
    groups: &[RULE, SAFE_STATE],
};

static SAFE_LIST: &[Column] = &[
    Column::new(
        "heading",
        Dtype::Str,
        Role::Label,
        "the rule and its modulus, `1..3: M = 8`",
    ),
    Column::new(
        "side",
        Dtype::Enum(SIDES),
        Role::Param,
        "whose safe states these are",
    ),
    Column::new(
        "M",
        Dtype::Int,
        Role::Result,
        "the modulus; null without a proven period",
    )
    .nullable(),
    Column::new(
        "preperiod",
        Dtype::Int,
        Role::Result,
        "first pile size of the pattern; null without a period",
    )
    .nullable(),
    Column::new(
        "count",
        Dtype::Int,
        Role::Result,
        "number of safe states; null without a period",
    )
    .nullable(),
    Column::new(
        "states",
        Dtype::StrList,
        Role::Result,
        "the safe states, `(a,b,Mn+c)`",
    )
    .nullable(),
    Column::new(
        "absolute",
        Dtype::StrList,
        Role::Result,
        "those safe whoever moves",
    )
    .nullable(),
    Column::new(
        "common",
        Dtype::StrList,
        Role::Result,
        "those safe only when the opponent moves",
    )
    .nullable(),
    Column::new(
        "exceptions",
        Dtype::StrList,
        Role::Result,
        "states below the preperiod that break the pattern, `+(a,b,r)` safe or `−(a,b,r)` not",
    )
    .nullable(),
    Column::new(
        "article",
        Dtype::StrList,
        Role::Result,
        "report 001's printed list; null where it printed none",
    )
    .nullable(),
    Column::new(
        "matches_article",
        Dtype::Enum(YES_NO),
        Role::Result,
        "does the computed list equal the article's? null where it printed none",
    )
    .nullable(),
];

/// `safe_lists`: one row per rule and side.
pub static SAFE_LISTS: Dataset = Dataset {
    name: "safe_lists",
    doc: "One row per rule and side: its safe states as lists, against report 001's.",
    groups: &[RULE, TAKE_SET, SAFE_LIST],
};

static MODULUS: &[Column] = &[
    Column::new(
        "claimed_M",
        Dtype::Int,
        Role::Result,
        "report 001's modulus for this rule; null where it claims none",
    )
    .nullable(),
    Column::new(
        "claim",
        Dtype::Enum(VERDICTS),
        Role::Result,
        "does the computed modulus equal the claimed one?",
    ),
    Column::new(
        "states_claim",
        Dtype::Enum(VERDICTS),
        Role::Result,
        "do the computed safe states equal the article's lists?",
    ),
    Column::new(
        "start",
        Dtype::Str,
        Role::Result,
        "the start position (0, 0, r) by residue of r: `0: absolute_even; 2: absolute_odd`",
    ),
    Column::new(
        "computed_to",
        Dtype::Int,
        Role::Result,
        "last pile size computed",
    ),
];

/// `moduli`: one row per rule; `period` is the modulus M.
pub static MODULI: Dataset = Dataset {
    name: "moduli",
    doc: "One row per rule: the modulus M (the minimal period of the outcome table in r, in `period`), proven, against report 001's claim.",
    groups: &[RULE, TAKE_SET, PERIOD_COLUMNS, MODULUS],
};

static PATTERN_ROW: &[Column] = &[
    Column::new(
        "rule",
        Dtype::Cat,
        Role::Label,
        "variant and take set, `sides take 1..3` (accepted back by `nimlab solve parity --rule`)",
    ),
    Column::new("r", Dtype::Int, Role::Position, "stones left in the pile"),
    Column::new(
        "strip",
        Dtype::Cat,
        Role::Position,
        "the strip: hand parities and mover, `a=0 b=1, odd moves`",
    ),
    Column::new(
        "winner",
        Dtype::Enum(PLAYERS),
        Role::Result,
        "who wins with perfect play",
    ),
];

/// `pattern`: the strip chart's data.
pub static PATTERN: Dataset = Dataset {
    name: "pattern",
    doc: "One row per pile size and state (hand parities, mover): who wins, for the strip charts.",
    groups: &[RULE, PATTERN_ROW],
};

static POSITION_ROW: &[Column] = &[
    Column::new(
        "a",
        Dtype::Int,
        Role::Position,
        "stones in the first hand (Odd's in `sides`)",
    ),
    Column::new("b", Dtype::Int, Role::Position, "stones in the second hand"),
    Column::new("r", Dtype::Int, Role::Position, "stones left in the pile"),
    Column::new(
        "mover",
        Dtype::Enum(PLAYERS),
        Role::Position,
        "the player to move",
    ),
    Column::new(
        "winner",
        Dtype::Enum(PLAYERS),
        Role::Result,
        "who wins with perfect play",
    ),
    Column::new(
        "winning_takes",
        Dtype::IntList,
        Role::Result,
        "the takes that win for the mover",
    ),
    Column::new(
        "leads_to",
        Dtype::StrList,
        Role::Result,
        "each winning take and the position it leads to, `1→(1,0,16)`",
    ),
    Column::new(
        "state_class",
        Dtype::Enum(STATE_CLASSES),
        Role::Result,
        "whom the state is safe for",
    ),
];

/// `positions`: positions asked for with real hand sizes (`at:`).
pub static POSITIONS: Dataset = Dataset {
    name: "positions",
    doc: "One row per position asked for (`at:`, real hand sizes) and mover.",
    groups: &[RULE, POSITION_ROW],
};

/// Every parity dataset.
pub static DATASETS: &[&Dataset] = &[
    &OUTCOME,
    &REMOTENESS,
    &SAFE_STATES,
    &SAFE_LISTS,
    &MODULI,
    &PATTERN,
    &POSITIONS,
];
