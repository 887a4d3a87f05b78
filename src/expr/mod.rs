//! The conjecture expression language: parsing ([`parse`]) and type checking,
//! compilation and evaluation over a table ([`compile`]). A leaf module: it
//! knows tables, not games, specs or files.
//!
//! # The language
//!
//! ```text
//! outcome == "P" <=> N % (take_max + 1) == 0
//! let n = take_max; outcome == "P" <=> (N == 0 or (N - (n+2)) % (2*n+3) == 0 or N % (2*n+3) == 0)
//! grundy == 4                                   (with where: y >= 22)
//! period == (k % 2 == 1 ? 2*(k+1) : k+2)
//! N % 8 in [1, 3, 5]      r in 2..9      v2(N + 1) >= 2 ==> outcome == "N"
//! 3 in winning_takes      winning_moves.heap == [1, 2, 3]      sorted(winning_takes) == [1, 3]
//! ```
//!
//! Precedence, loosest first (all binary operators left-associative unless said):
//!
//! | level | operators |
//! |---|---|
//! | 1 | `<=>` (also `iff`, `⇔`) — iff |
//! | 2 | `==>` (also `implies`, `⇒`) — implies, **right**-associative: `p ==> q ==> r` is `p ==> (q ==> r)` |
//! | 3 | `c ? a : b` — right-associative; `c` is an `or`-level expression |
//! | 4 | `or`, `\|\|` |
//! | 5 | `and`, `&&` |
//! | 6 | prefix `not`, `!` (the same operator: `not a == b` and `!a == b` are both `not (a == b)`) |
//! | 7 | `== != < <= > >=`, `x in [a, b, ...]`, `x in a..b`, `x in list`, `x not in ...` — comparisons chain as in mathematics: `0 <= r < q` is `0 <= r and r < q` |
//! | 8 | `+ -` |
//! | 9 | `* / %` |
//! | 10 | prefix `-` |
//! | — | literals (`12`, `1.5`, `"P"`, `'P'`, `true`, `false`, `null`), lists (`[1, 2]`, `["a", "b"]`, `[]`), column names (`N1`, or back-quoted `` `any name` ``), fields (`winning_moves.take`), calls `f(a, b)`, `( ... )` |
//!
//! * **Integers** are 64-bit. `/` on integers is **floor** division (rounds
//!   toward −∞) and `%` the matching **floor** modulus, `a % b = a − b·(a / b)`,
//!   so `-7 / 2 == -4`, `-7 % 3 == 2`: for a positive modulus the remainder is
//!   in `0..b-1`, as number theorists expect (Python's convention, not C's or
//!   Rust's). Division or modulus by zero and overflow give `null`.
//! * **Floats** only appear when a float column or literal is involved; then
//!   `/` is true division and `%` the floor modulus.
//! * `x in a..b` includes both ends; `x in [..]` is equality with some item.
//! * **Strings** compare with strings (`outcome == "P"`, `rule < "m"`); a
//!   string never equals a number (that is a type error, found before any
//!   row is read).
//! * **Null** (a null cell such as `grundy` where no Grundy value is defined,
//!   or the literal `null`): arithmetic and comparisons with null are null;
//!   `and`/`or`/`not`/`==>` use Kleene's three-valued logic (`false and null`
//!   is false, `true or null` is true, `null ==> q` is true when q is true);
//!   `<=>` with a null side is null; `x in [..]` is null for a null `x`; a
//!   null condition of `? :` gives null. A row whose claim is null is counted
//!   as **undetermined**, never as passing or failing; a row whose `where`
//!   is null is left out (as SQL's WHERE) and counted. Test for null with
//!   `is_null(x)`, default it with `coalesce(x, d)`.
//! * **Functions** ([`compile::FUNCTIONS`]): `v2(n)` the 2-adic valuation
//!   (`v2(12) == 2`; `v2(0)` is **null**, since the valuation of 0 is +∞ —
//!   so `N == 0 or v2(N) >= 1` is true at N = 0), `mod(a, b)` (= `a % b`),
//!   `floor(x)`, `ceil(x)` (integers), `abs`, `min(a, b, ...)`,
//!   `max(a, b, ...)`, `gcd(a, b, ...)` (non-negative, `gcd(0, 0) = 0`),
//!   `lcm`, `xor(a, b, ...)` (the Nim-sum), `pow(a, e)`, `is_null(x)`,
//!   `coalesce(a, b, ...)`; on lists `len`, `sum`, `min`, `max`, `sorted`, `min_gap`, `max_gap`
//!   (smallest and largest difference of consecutive items in increasing order)
//!   (see Lists).
//! * `let n = take_max; <claim>` binds a name for readability (several `let`s
//!   may lead the expression; a `let` may not hide a column).
//! * Unicode spellings copied from reports are accepted: `≤ ≥ ≠ ⇒ ⇔ ¬ ∧ ∨ ∈ ∉ −`.
//!   Implicit multiplication is not: `2n` is an error suggesting `2*n`.
//!
//! Every error points at the mistake: the message, the 1-based column, and
//! the expression with a caret under the offending token ([`ExprError`]).
//! Unknown columns are named and the available columns listed; type errors
//! name the operator or function and the operand's type and text.
//!
//! ## Lists
//!
//! ```text
//! 3 in winning_takes                     winning_moves.heap == [1, 2, 3]
//! len(loss_set) == count                 sorted(winning_takes) == [1, 3]
//! outcome == "N" ==> winning_takes == [N % (k + 1)]
//! outcome == "P" <=> len(winning_moves) == 0
//! ```
//!
//! * **List values**: a column of lists of integers or of strings (null on
//!   some rows, e.g. where a position was not solved), a **field** of a
//!   column of structs, and list literals `[1, 2, 3]`, `["a", "b"]`, `[]`
//!   (the empty list goes with either kind). A list literal's items are
//!   integers or strings, all of one kind.
//! * **Fields**: a column of structs (e.g. `winning_moves`, structs with
//!   fields `heap` and `take`) is not a value itself; `winning_moves.take`
//!   is the list of the `take` fields of the row's structs, in order. Write
//!   the dot with no spaces (`` `my moves`.take `` for a back-quoted name);
//!   `a..b` is still a range and `1.5` a number. An unknown field is an
//!   error listing the fields; so is a field of anything but a column of
//!   structs.
//! * `l == m`, `l != m`: the same items in the same order (`[1, 3] != [3,
//!   1]`; compare `sorted(l)` to ignore order); null when either list is
//!   null. `<`, `>`, … on lists, and a list compared with a scalar
//!   (`winning_takes == 3`: did you mean `3 in winning_takes`?), are type
//!   errors, found before any row is read.
//! * `x in l`, `x not in l` for a list value `l` (a column, a field, a
//!   call such as `sorted(l)`): is `x` an item of `l`; null when `x` or `l`
//!   is null. `x in [a, b, ...]` keeps its meaning (equality with some
//!   item, whose items may be computed, e.g. `N in [k, 2*k]`).
//! * `len(l)`: the number of items (null for a null list); `len(structs)`
//!   the number of structs of a column of structs; `len(s)` of a string its
//!   characters. `sum(l)` (0 for an empty list, null on overflow), `min(l)`,
//!   `max(l)` (null for an empty list) of a list of integers. `sorted(l)`:
//!   the items in increasing order (integers numerically, strings by
//!   bytes). `is_null(l)`, `coalesce(l, [])`, `c ? l : m` work on lists.
//! * **Computed items** (`[N, N + 1]`) are allowed beside `==` and `!=`
//!   (compared item by item: false when the lengths or some item differ,
//!   else null when some item is null) and as a whole expression (e.g. a
//!   claim's side shown with a counterexample). Elsewhere a list value's
//!   items must be constants, compiled once: `sum([N, 1])` is an error.
//! * **Cost**: column lists, fields and literals are borrowed, never copied,
//!   so list claims allocate nothing per row. `sorted(l)` is a view: `in`,
//!   `len`, `sum`, `min`, `max` read the items as they are; `==` sorts a
//!   copy (on the stack up to [`compile::STACK_ITEMS`] items, on the heap
//!   beyond: one allocation per sorted side). [`Bound::eval`] (the display
//!   of a value, not used to count rows) builds the sorted list, or the
//!   list of computed items, and keeps it until the `Bound` is dropped.
//!
//! # Why a hand-written parser
//!
//! The issue asks to prefer an existing engine. We evaluated, against the
//! syntax above:
//!
//! * **polars expressions / SQL** over the stored dataframe: needs polars'
//!   `lazy` (and `sql`) features, too heavy for the 12-minute, 2-core build
//!   budget (polars with `parquet` alone took ~7 minutes; nimlab now writes
//!   Parquet with arrow-rs and no longer builds polars at all). SQL also has no
//!   `==>`, `<=>`, `? :`, no floor `%`, and its errors give no reliable
//!   position inside a claim.
//! * **rhai 1.27** (MIT/Apache; built with `only_i64, no_float, no_module,
//!   no_object, no_function, no_time`): ~50 s of CPU to compile. Tried:
//!   `register_custom_operator("==>")` and `("<=>")` are accepted, but the
//!   tokenizer still reads `<=` `>`, so `outcome == "P" <=> N % (n + 1) == 0`
//!   is a parse error ("unexpected `>`"); there is no `c ? a : b` ("unknown
//!   operator `?`"), `not` is not an operator (custom operators are binary
//!   only), `2..9` excludes 9, and `-7 / 2 == -3`, `-7 % 3 == -1`
//!   (truncation). Null (`()`) comparisons are not three-valued. Every one
//!   of these would need rewriting the claim's text before rhai sees it,
//!   which moves error positions and is fragile.
//! * **cel-interpreter / cel** (CEL, MIT): has `? :` and `in [..]`, but not
//!   `and or not`, `==>`, `<=>` or ranges; integer `/` and `%` truncate;
//!   comparing with null is an error, not null; the parser pulls in an
//!   ANTLR runtime (or lalrpop) plus regex and chrono by default.
//! * **evalexpr**: ≥ 12 is AGPL; 11 (MIT) has no `? :`, no `in`, no
//!   positions in its errors. **fasteval**: floats only.
//!
//! None meets the syntax and positioned errors without text rewriting, so
//! this module has its own lexer and Pratt parser ([`parse`], ~850 lines
//! with docs) and a typed compiler/evaluator ([`compile`], ~1800 lines): no
//! new dependency; it adds about 5 s of CPU to a release build (measured:
//! the crate compiled with and without this module, 4 s; lists added 1 s,
//! measured compiling `data` and `expr` alone before and after), against
//! ~50 s of CPU for rhai alone. Evaluation is specialised to our
//! [`Table`](crate::data::Table): columns are resolved to slots once,
//! operand types are checked before any row is read, values are `Copy`
//! (lists borrow the table), nothing is allocated per row, and tables larger than
//! 65 536 rows are split into chunks checked in parallel (rayon) and merged in
//! row order — about 4–9 million rows per second per claim.

pub mod compile;
pub mod parse;
#[cfg(test)]
mod tests;

pub use compile::{Bound, Expr};
pub use parse::{Ast, BinOp, ExprError};

/// Checks an expression's syntax only (no table needed), e.g. when a spec
/// is loaded.
pub fn syntax_check(source: &str) -> Result<(), ExprError> {
    parse::parse(source).map(|_| ())
}
