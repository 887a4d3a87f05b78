//! Lexer and Pratt parser of the claim language: text → [`Ast`] with spans.
//!
//! Every token and node carries its byte span in the source, so that every
//! error (here and in the type checker) can point at the mistake.

use std::fmt;

/// A byte range `[start, end)` in the expression's source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }
    fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

/// A mistake in an expression: what is wrong and where.
#[derive(Clone, Debug, PartialEq)]
pub struct ExprError {
    /// The expression.
    pub source: String,
    /// Byte span of the mistake in `source` (empty at the end of the input).
    pub span: Span,
    /// What is wrong (and what is allowed).
    pub message: String,
}

impl ExprError {
    pub(crate) fn new(source: &str, span: Span, message: impl Into<String>) -> ExprError {
        ExprError {
            source: source.to_string(),
            span,
            message: message.into(),
        }
    }
    /// The 1-based character column where the mistake starts.
    pub fn column(&self) -> usize {
        self.source[..self.span.start.min(self.source.len())]
            .chars()
            .count()
            + 1
    }
}

impl fmt::Display for ExprError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let col = self.column();
        let width = self.source
            [self.span.start.min(self.source.len())..self.span.end.min(self.source.len())]
            .chars()
            .count()
            .max(1);
        write!(
            f,
            "{} (at column {col})\n    {}\n    {}{}",
            self.message,
            self.source,
            " ".repeat(col - 1),
            "^".repeat(width)
        )
    }
}

impl std::error::Error for ExprError {}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Tok {
    Int(i64),
    Float(f64),
    Str(String),
    Ident(String),
    /// A back-quoted column name.
    Quoted(String),
    /// `.name` right after a name (no space between): a field of a column
    /// of structs. The span is the field's name, after the dot.
    Field(String),
    Op(&'static str),
    End,
}

impl Tok {
    fn describe(&self) -> String {
        match self {
            Tok::Int(v) => format!("the number {v}"),
            Tok::Float(v) => format!("the number {v}"),
            Tok::Str(s) => format!("the string {s:?}"),
            Tok::Ident(s) if KEYWORDS.contains(&s.as_str()) => format!("`{s}`"),
            Tok::Ident(s) => format!("the name `{s}`"),
            Tok::Quoted(s) => format!("the column `{s}`"),
            Tok::Field(s) => format!("the field `.{s}`"),
            Tok::Op(o) => format!("`{o}`"),
            Tok::End => "the end of the expression".to_string(),
        }
    }
}

const KEYWORDS: &[&str] = &[
    "and", "or", "not", "in", "true", "false", "null", "let", "implies", "iff",
];

/// Operators, longest first (so `==>` wins over `==`, `<=>` over `<=`).
const OPS: &[&str] = &[
    "==>", "<=>", "==", "!=", "<=", ">=", "&&", "||", "..", "+", "-", "*", "/", "%", "<", ">", "!",
    "?", ":", "(", ")", "[", "]", ",", ";", "=",
];

/// Unicode spellings accepted for convenience when copying from a report.
const UNICODE_OPS: &[(char, &str)] = &[
    ('≤', "<="),
    ('≥', ">="),
    ('≠', "!="),
    ('⇒', "==>"),
    ('→', "==>"),
    ('⇔', "<=>"),
    ('↔', "<=>"),
    ('¬', "!"),
    ('∧', "&&"),
    ('∨', "||"),
    ('−', "-"),
    ('×', "*"),
];

pub(crate) fn lex(src: &str) -> Result<Vec<(Tok, Span)>, ExprError> {
    let mut lx = Lexer {
        src,
        b: src.as_bytes(),
        i: 0,
        out: Vec::new(),
    };
    while lx.i < lx.b.len() {
        let c = lx.b[lx.i];
        if c.is_ascii_whitespace() {
            lx.i += 1;
        } else if c == b'.'
            && follows_name(&lx.out, lx.i)
            && lx.b.get(lx.i + 1).is_some_and(|&d| is_name_start(d))
        {
            // `name.field`: a dot right after a name and right before a letter
            // (so `a..b` stays a range and `1.5` a number).
            lx.field();
        } else if c.is_ascii_digit() {
            lx.number()?;
        } else if is_name_start(c) {
            let start = lx.i;
            lx.skip_name();
            lx.push(Tok::Ident(src[start..lx.i].to_string()), start);
        } else if c == b'"' || c == b'\'' || c == b'`' {
            lx.quoted(c)?;
        } else {
            lx.symbol()?;
        }
    }
    let end = Span::new(lx.b.len(), lx.b.len());
    lx.out.push((Tok::End, end));
    Ok(lx.out)
}

/// The lexer's cursor over the source and the tokens so far.
struct Lexer<'a> {
    src: &'a str,
    b: &'a [u8],
    i: usize,
    out: Vec<(Tok, Span)>,
}

impl Lexer<'_> {
    fn push(&mut self, t: Tok, start: usize) {
        self.out.push((t, Span::new(start, self.i)));
    }

    fn skip_while(&mut self, f: impl Fn(u8) -> bool) {
        while self.i < self.b.len() && f(self.b[self.i]) {
            self.i += 1;
        }
    }

    fn skip_name(&mut self) {
        self.skip_while(|c| c.is_ascii_alphanumeric() || c == b'_');
    }

    /// `.field` after a name.
    fn field(&mut self) {
        let start = self.i + 1;
        self.i += 1;
        self.skip_name();
        self.push(Tok::Field(self.src[start..self.i].to_string()), start);
    }

    /// An integer (`1_000`) or a float (`1.5`, `2.5e3`); `2..9` is a range.
    fn number(&mut self) -> Result<(), ExprError> {
        let (src, b, start) = (self.src, self.b, self.i);
        self.skip_while(|c| c.is_ascii_digit() || c == b'_');
        let is_float = self.i + 1 < b.len() && b[self.i] == b'.' && b[self.i + 1].is_ascii_digit();
        if is_float {
            self.i += 1;
            self.skip_while(|c| c.is_ascii_digit());
            self.exponent();
        }
        let text: String = src[start..self.i].chars().filter(|&c| c != '_').collect();
        if self.i < b.len() && is_name_start(b[self.i]) {
            let digits_end = self.i;
            self.skip_name();
            return Err(ExprError::new(
                src,
                Span::new(start, self.i),
                format!(
                    "`{}` is not a number or a name; write multiplication explicitly, e.g. `{}*{}`",
                    &src[start..self.i],
                    text,
                    &src[digits_end..self.i]
                ),
            ));
        }
        let span = Span::new(start, self.i);
        let tok = if is_float {
            Tok::Float(
                text.parse()
                    .map_err(|_| ExprError::new(src, span, "cannot read this number"))?,
            )
        } else {
            Tok::Int(text.parse().map_err(|_| {
                ExprError::new(
                    src,
                    span,
                    "integer literal too large (integers are 64-bit, at most 9223372036854775807)",
                )
            })?)
        };
        self.out.push((tok, span));
        Ok(())
    }

    /// The exponent of a float, `e3`, `E-2`, if one follows.
    fn exponent(&mut self) {
        let b = self.b;
        if self.i < b.len() && (b[self.i] == b'e' || b[self.i] == b'E') {
            let mut j = self.i + 1;
            if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
                j += 1;
            }
            if j < b.len() && b[j].is_ascii_digit() {
                self.i = j;
                self.skip_while(|c| c.is_ascii_digit());
            }
        }
    }

    /// A string (`"…"`, `'…'`) or a back-quoted column name, with escapes.
    fn quoted(&mut self, quote: u8) -> Result<(), ExprError> {
        let (src, b, start) = (self.src, self.b, self.i);
        self.i += 1;
        let mut s = String::new();
        loop {
            if self.i >= b.len() {
                let what = if quote == b'`' {
                    "unterminated back-quoted column name"
                } else {
                    "unterminated string: add the closing quote"
                };
                return Err(ExprError::new(src, Span::new(start, start + 1), what));
            }
            let c = b[self.i];
            if c == quote {
                self.i += 1;
                break;
            }
            if c == b'\\' && self.i + 1 < b.len() {
                s.push(self.escape()?);
                continue;
            }
            let ch = src[self.i..].chars().next().unwrap();
            s.push(ch);
            self.i += ch.len_utf8();
        }
        let tok = if quote == b'`' {
            Tok::Quoted(s)
        } else {
            Tok::Str(s)
        };
        self.push(tok, start);
        Ok(())
    }

    /// The character of the escape at the cursor (a backslash and one more).
    fn escape(&mut self) -> Result<char, ExprError> {
        let e = self.b[self.i + 1];
        let ch = match e {
            b'\\' | b'"' | b'\'' | b'`' => e as char,
            b'n' => '\n',
            b't' => '\t',
            _ => {
                return Err(ExprError::new(
                    self.src,
                    Span::new(self.i, self.i + 2),
                    "unknown escape; allowed: \\\\ \\\" \\' \\n \\t",
                ));
            }
        };
        self.i += 2;
        Ok(ch)
    }

    /// An operator (ASCII or its Unicode form, `∈`, `∉`), or an error that
    /// says what to write instead.
    fn symbol(&mut self) -> Result<(), ExprError> {
        let (src, start) = (self.src, self.i);
        if let Some(op) = OPS.iter().find(|o| src[start..].starts_with(**o)) {
            self.i += op.len();
            self.push(Tok::Op(op), start);
            return Ok(());
        }
        let ch = src[start..].chars().next().unwrap();
        let span = Span::new(start, start + ch.len_utf8());
        let toks: Vec<Tok> = if let Some((_, op)) = UNICODE_OPS.iter().find(|(u, _)| *u == ch) {
            vec![Tok::Op(op)]
        } else if ch == '∈' {
            vec![Tok::Ident("in".into())]
        } else if ch == '∉' {
            vec![Tok::Ident("not".into()), Tok::Ident("in".into())]
        } else {
            let hint = match ch {
                '&' => "; `and` is `and` or `&&`",
                '|' => "; `or` is `or` or `||`",
                '^' => "; there is no power operator: use pow(a, b) (`^` is not xor either)",
                '.' => {
                    "; ranges are written `a..b`, fields of a column of structs `column.field` (no spaces)"
                }
                _ => "",
            };
            return Err(ExprError::new(
                src,
                span,
                format!("unexpected character `{ch}`{hint}"),
            ));
        };
        self.i += ch.len_utf8();
        self.out.extend(toks.into_iter().map(|t| (t, span)));
        Ok(())
    }
}

fn is_name_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

/// Does the last token end at byte `i` and name something that may have
/// fields (a name, a back-quoted name or a field)?
fn follows_name(toks: &[(Tok, Span)], i: usize) -> bool {
    matches!(toks.last(), Some((Tok::Ident(_) | Tok::Quoted(_) | Tok::Field(_), s)) if s.end == i)
}

/// Binary operators of the language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/` (floor division on integers)
    Div,
    /// `%` (floor modulus on integers)
    Rem,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `and`, `&&`
    And,
    /// `or`, `||`
    Or,
    /// `==>`
    Implies,
    /// `<=>`
    Iff,
}

impl BinOp {
    /// How the operator is written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "and",
            BinOp::Or => "or",
            BinOp::Implies => "==>",
            BinOp::Iff => "<=>",
        }
    }
    pub(crate) fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}

/// The syntax tree.
#[derive(Clone, Debug, PartialEq)]
pub enum Ast {
    /// An integer literal.
    Int(i64, Span),
    /// A float literal.
    Float(f64, Span),
    /// A string literal.
    Str(String, Span),
    /// `true` / `false`.
    Bool(bool, Span),
    /// `null`.
    Null(Span),
    /// A column or `let` name.
    Name(String, Span),
    /// `base.field`: a field of a column of structs; the span is the
    /// field's name.
    Field(Box<Ast>, String, Span),
    /// A list `[a, b, ...]` used as a value; the span is the `[`, then the
    /// end of `]`.
    List(Vec<Ast>, Span, usize),
    /// `-x`.
    Neg(Box<Ast>, Span),
    /// `not x`, `!x`.
    Not(Box<Ast>, Span),
    /// `l op r`; the span is the operator's.
    Bin(BinOp, Box<Ast>, Box<Ast>, Span),
    /// `c ? a : b`; the span is the `?`.
    Cond(Box<Ast>, Box<Ast>, Box<Ast>, Span),
    /// `x in [..]` / `x not in [..]`; the span is the `in`, then the end of `]`.
    InList(Box<Ast>, Vec<Ast>, bool, Span, usize),
    /// `x in a..b` (both ends included) / `x not in a..b`.
    InRange(Box<Ast>, Box<Ast>, Box<Ast>, bool, Span),
    /// `x in l` / `x not in l` for a list-valued expression `l` (a list
    /// column, a field, a call); the span is the `in`.
    In(Box<Ast>, Box<Ast>, bool, Span),
    /// `f(args)`; the span is the name, then the end of `)`.
    Call(String, Vec<Ast>, Span, usize),
    /// `let name = value; body`.
    Let(String, Span, Box<Ast>, Box<Ast>),
}

impl Ast {
    /// The span of the whole node (operands included).
    pub fn full_span(&self) -> Span {
        match self {
            Ast::Int(_, s)
            | Ast::Float(_, s)
            | Ast::Str(_, s)
            | Ast::Bool(_, s)
            | Ast::Null(s)
            | Ast::Name(_, s) => *s,
            Ast::Neg(x, s) | Ast::Not(x, s) => s.to(x.full_span()),
            Ast::Field(base, _, s) => base.full_span().to(*s),
            Ast::List(_, s, end) => Span::new(s.start, *end),
            Ast::In(x, l, _, _) => x.full_span().to(l.full_span()),
            Ast::Bin(_, l, r, _) => l.full_span().to(r.full_span()),
            Ast::Cond(c, _, b, _) => c.full_span().to(b.full_span()),
            Ast::InList(x, _, _, _, end) => Span::new(x.full_span().start, *end),
            Ast::InRange(x, _, hi, _, _) => x.full_span().to(hi.full_span()),
            Ast::Call(_, _, s, end) => Span::new(s.start, *end),
            Ast::Let(_, s, _, body) => s.to(body.full_span()),
        }
    }
}

impl Ast {
    /// The names it reads, in order of first mention: its columns (and
    /// `other_x`), not the fields of a column of structs, the functions it
    /// calls or the names its `let`s bind.
    pub fn free_names(&self) -> Vec<&str> {
        let mut out = Vec::new();
        self.names_into(&mut Vec::new(), &mut out);
        out
    }

    fn names_into<'a>(&'a self, bound: &mut Vec<&'a str>, out: &mut Vec<&'a str>) {
        match self {
            Ast::Int(..) | Ast::Float(..) | Ast::Str(..) | Ast::Bool(..) | Ast::Null(_) => {}
            Ast::Name(n, _) => {
                if !bound.contains(&n.as_str()) && !out.contains(&n.as_str()) {
                    out.push(n);
                }
            }
            Ast::Field(base, _, _) | Ast::Neg(base, _) | Ast::Not(base, _) => {
                base.names_into(bound, out)
            }
            Ast::List(xs, _, _) | Ast::Call(_, xs, _, _) => {
                xs.iter().for_each(|x| x.names_into(bound, out))
            }
            Ast::Bin(_, l, r, _) | Ast::In(l, r, _, _) => {
                l.names_into(bound, out);
                r.names_into(bound, out);
            }
            Ast::Cond(a, b, c, _) | Ast::InRange(a, b, c, _, _) => {
                [a, b, c].iter().for_each(|x| x.names_into(bound, out))
            }
            Ast::InList(x, xs, _, _, _) => {
                x.names_into(bound, out);
                xs.iter().for_each(|x| x.names_into(bound, out));
            }
            Ast::Let(name, _, value, body) => {
                value.names_into(bound, out);
                bound.push(name);
                body.names_into(bound, out);
                bound.pop();
            }
        }
    }
}

// Binding powers (higher binds tighter).
const BP_IFF: u8 = 1;
const BP_IMPLIES: u8 = 2;
const BP_COND: u8 = 3;
const BP_OR: u8 = 4;
const BP_AND: u8 = 5;
const BP_NOT: u8 = 6;
const BP_CMP: u8 = 7;
const BP_ADD: u8 = 8;
const BP_MUL: u8 = 9;
const BP_NEG: u8 = 10;

struct Parser<'s> {
    src: &'s str,
    toks: Vec<(Tok, Span)>,
    pos: usize,
}

/// Parses an expression (with optional leading `let name = value;` bindings).
pub fn parse(src: &str) -> Result<Ast, ExprError> {
    let toks = lex(src)?;
    let mut p = Parser { src, toks, pos: 0 };
    if matches!(p.peek(), Tok::End) {
        return Err(p.err_here("empty expression"));
    }
    let ast = p.lets()?;
    if !matches!(p.peek(), Tok::End) {
        let hint = match p.peek() {
            Tok::Op(")") => "; this `)` has no matching `(`",
            Tok::Op("=") => "; equality is written `==`",
            Tok::Int(_)
            | Tok::Float(_)
            | Tok::Ident(_)
            | Tok::Str(_)
            | Tok::Quoted(_)
            | Tok::Op("[") => "; an operator is missing before it",
            _ => "",
        };
        return Err(p.err_here(format!(
            "unexpected {} after a complete expression{hint}",
            p.peek().describe()
        )));
    }
    Ok(ast)
}

impl Parser<'_> {
    fn peek(&self) -> &Tok {
        &self.toks[self.pos].0
    }
    fn span(&self) -> Span {
        self.toks[self.pos].1
    }
    fn bump(&mut self) -> (Tok, Span) {
        let t = self.toks[self.pos].clone();
        if !matches!(t.0, Tok::End) {
            self.pos += 1;
        }
        t
    }
    fn err_here(&self, msg: impl Into<String>) -> ExprError {
        ExprError::new(self.src, self.span(), msg)
    }
    fn is_op(&self, op: &str) -> bool {
        matches!(self.peek(), Tok::Op(o) if *o == op)
    }
    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(s) if s == w)
    }
    fn expect_op(&mut self, op: &str, what: &str) -> Result<Span, ExprError> {
        if self.is_op(op) {
            Ok(self.bump().1)
        } else {
            Err(self.err_here(format!(
                "expected `{op}` {what}, found {}",
                self.peek().describe()
            )))
        }
    }

    fn lets(&mut self) -> Result<Ast, ExprError> {
        if self.is_word("let") {
            self.bump();
            let (tok, span) = self.bump();
            let name = match tok {
                Tok::Ident(n) if !KEYWORDS.contains(&n.as_str()) => n,
                t => {
                    return Err(ExprError::new(
                        self.src,
                        span,
                        format!("expected a name after `let`, found {}", t.describe()),
                    ));
                }
            };
            self.expect_op("=", "after the name in `let name = value;`")?;
            let value = self.expr(0)?;
            self.expect_op(";", "after the value in `let name = value;`")?;
            let body = self.lets()?;
            return Ok(Ast::Let(name, span, Box::new(value), Box::new(body)));
        }
        self.expr(0)
    }

    /// The infix operator at the cursor, its binding power and whether it is
    /// right-associative.
    fn infix(&self) -> Option<(BinOp, u8, bool)> {
        let op = match self.peek() {
            Tok::Op(o) => match *o {
                "<=>" => (BinOp::Iff, BP_IFF, false),
                "==>" => (BinOp::Implies, BP_IMPLIES, true),
                "||" => (BinOp::Or, BP_OR, false),
                "&&" => (BinOp::And, BP_AND, false),
                "==" => (BinOp::Eq, BP_CMP, false),
                "!=" => (BinOp::Ne, BP_CMP, false),
                "<" => (BinOp::Lt, BP_CMP, false),
                "<=" => (BinOp::Le, BP_CMP, false),
                ">" => (BinOp::Gt, BP_CMP, false),
                ">=" => (BinOp::Ge, BP_CMP, false),
                "+" => (BinOp::Add, BP_ADD, false),
                "-" => (BinOp::Sub, BP_ADD, false),
                "*" => (BinOp::Mul, BP_MUL, false),
                "/" => (BinOp::Div, BP_MUL, false),
                "%" => (BinOp::Rem, BP_MUL, false),
                _ => return None,
            },
            Tok::Ident(w) => match w.as_str() {
                "iff" => (BinOp::Iff, BP_IFF, false),
                "implies" => (BinOp::Implies, BP_IMPLIES, true),
                "or" => (BinOp::Or, BP_OR, false),
                "and" => (BinOp::And, BP_AND, false),
                _ => return None,
            },
            _ => return None,
        };
        Some(op)
    }

    /// Pratt loop: parses an expression whose operators all bind tighter than `min_bp`.
    fn expr(&mut self, min_bp: u8) -> Result<Ast, ExprError> {
        let mut lhs = self.prefix()?;
        loop {
            // Ternary.
            if self.is_op("?") {
                if BP_COND <= min_bp {
                    break;
                }
                let q = self.bump().1;
                let then = self.expr(0)?;
                self.expect_op(":", "between the branches of `c ? a : b`")?;
                // Right-associative: `a ? b : c ? d : e` is `a ? b : (c ? d : e)`.
                let other = self.expr(BP_COND - 1)?;
                lhs = Ast::Cond(Box::new(lhs), Box::new(then), Box::new(other), q);
                continue;
            }
            // Membership, at comparison level: `x in ..`, `x not in ..`.
            let negated_in = self.is_word("not")
                && matches!(self.toks.get(self.pos + 1), Some((Tok::Ident(w), _)) if w == "in");
            if self.is_word("in") || negated_in {
                if BP_CMP <= min_bp {
                    break;
                }
                if negated_in {
                    self.bump();
                }
                let in_span = self.bump().1;
                lhs = self.membership(lhs, negated_in, in_span)?;
                if self.is_word("in") || self.infix().is_some_and(|(op, _, _)| op.is_comparison()) {
                    return Err(self.err_here(
                        "membership tests do not chain with comparisons; add parentheses",
                    ));
                }
                continue;
            }
            let Some((op, bp, right)) = self.infix() else {
                break;
            };
            if bp <= min_bp {
                break;
            }
            let op_span = self.bump().1;
            if op.is_comparison() {
                // Chained comparisons read as in mathematics (and Python):
                // `a < b <= c` is `a < b and b <= c`.
                let rhs = self.expr(BP_CMP)?;
                let mut result = Ast::Bin(op, Box::new(lhs), Box::new(rhs.clone()), op_span);
                let mut prev = rhs;
                while let Some((op2, BP_CMP, _)) = self.infix() {
                    let s2 = self.bump().1;
                    let next = self.expr(BP_CMP)?;
                    let link = Ast::Bin(op2, Box::new(prev), Box::new(next.clone()), s2);
                    result = Ast::Bin(BinOp::And, Box::new(result), Box::new(link), s2);
                    prev = next;
                }
                lhs = result;
                continue;
            }
            let rhs = self.expr(if right { bp - 1 } else { bp })?;
            lhs = Ast::Bin(op, Box::new(lhs), Box::new(rhs), op_span);
        }
        Ok(lhs)
    }

    /// The items of a list after its `[` up to its `]` (a trailing comma
    /// is allowed), and the end of the `]`.
    fn list_items(&mut self) -> Result<(Vec<Ast>, usize), ExprError> {
        let mut items = Vec::new();
        if !self.is_op("]") {
            loop {
                items.push(self.expr(0)?);
                if self.is_op(",") {
                    self.bump();
                    if self.is_op("]") {
                        break; // trailing comma
                    }
                    continue;
                }
                break;
            }
        }
        if !self.is_op("]") {
            return Err(self.err_here(format!(
                "expected `,` or `]` in the list, found {}",
                self.peek().describe()
            )));
        }
        Ok((items, self.bump().1.end))
    }

    fn membership(&mut self, lhs: Ast, negated: bool, in_span: Span) -> Result<Ast, ExprError> {
        if self.is_op("[") {
            self.bump();
            let (items, end) = self.list_items()?;
            return Ok(Ast::InList(Box::new(lhs), items, negated, in_span, end));
        }
        if matches!(self.peek(), Tok::End) {
            return Err(self.err_here(
                "expected a list `[a, b, ...]` or a range `a..b` after `in`, found the end of the expression",
            ));
        }
        let lo = self.expr(BP_CMP)?;
        if !self.is_op("..") {
            // A name, a field or a call may be a list (the type checker
            // decides); a literal or arithmetic never is.
            match lo {
                // `x in ([a, b])` is `x in [a, b]`.
                Ast::List(items, _, end) => {
                    return Ok(Ast::InList(Box::new(lhs), items, negated, in_span, end));
                }
                Ast::Name(..) | Ast::Field(..) | Ast::Call(..) | Ast::Cond(..) => {
                    return Ok(Ast::In(Box::new(lhs), Box::new(lo), negated, in_span));
                }
                _ => {}
            }
            return Err(self.err_here(format!(
                "expected `..` of a range `a..b` (both ends included) or a list `[a, b, ...]` after `in`, found {}",
                self.peek().describe()
            )));
        }
        self.bump();
        let hi = self.expr(BP_CMP)?;
        Ok(Ast::InRange(
            Box::new(lhs),
            Box::new(lo),
            Box::new(hi),
            negated,
            in_span,
        ))
    }

    /// `base.f.g...`: the field tokens following a name.
    fn fields(&mut self, mut base: Ast) -> Ast {
        while let Tok::Field(f) = self.peek() {
            let f = f.clone();
            let span = self.bump().1;
            base = Ast::Field(Box::new(base), f, span);
        }
        base
    }

    fn prefix(&mut self) -> Result<Ast, ExprError> {
        let (tok, span) = self.bump();
        Ok(match tok {
            Tok::Int(v) => Ast::Int(v, span),
            Tok::Float(v) => Ast::Float(v, span),
            Tok::Str(s) => Ast::Str(s, span),
            Tok::Quoted(s) => self.fields(Ast::Name(s, span)),
            Tok::Op("[") => {
                let (items, end) = self.list_items()?;
                Ast::List(items, span, end)
            }
            Tok::Op("-") => {
                // Fold `-<literal>`: `-7 / 2` reads as the literal -7 divided by 2.
                let x = self.expr(BP_NEG)?;
                match x {
                    Ast::Int(v, s) => Ast::Int(v.wrapping_neg(), span.to(s)),
                    Ast::Float(v, s) => Ast::Float(-v, span.to(s)),
                    x => Ast::Neg(Box::new(x), span),
                }
            }
            Tok::Op("+") => self.expr(BP_NEG)?,
            Tok::Op("!") => Ast::Not(Box::new(self.expr(BP_NOT)?), span),
            Tok::Op("(") => self.parenthesised(span)?,
            Tok::Ident(w) => self.word(w, span)?,
            t => return Err(self.not_an_expression(t, span)),
        })
    }

    /// `( expr )`, after its `(` at `open`.
    fn parenthesised(&mut self, open: Span) -> Result<Ast, ExprError> {
        if self.is_op(")") {
            return Err(self.err_here("empty parentheses: expected an expression"));
        }
        let e = self.expr(0)?;
        if !self.is_op(")") {
            return Err(self.err_here(format!(
                "expected `)` to close the `(` at column {}, found {}",
                self.src[..open.start].chars().count() + 1,
                self.peek().describe()
            )));
        }
        self.bump();
        Ok(e)
    }

    /// A word at the start of an operand: a literal, `not`, a call or a name.
    fn word(&mut self, w: String, span: Span) -> Result<Ast, ExprError> {
        Ok(match w.as_str() {
            "true" => Ast::Bool(true, span),
            "false" => Ast::Bool(false, span),
            "null" => Ast::Null(span),
            "not" => Ast::Not(Box::new(self.expr(BP_NOT)?), span),
            "let" => {
                return Err(ExprError::new(
                    self.src,
                    span,
                    "`let name = value;` bindings may only stand at the start of the expression",
                ));
            }
            kw if KEYWORDS.contains(&kw) => {
                return Err(ExprError::new(
                    self.src,
                    span,
                    format!("expected an expression, found the keyword `{kw}`"),
                ));
            }
            _ if self.is_op("(") => self.call(w, span)?,
            _ => self.fields(Ast::Name(w, span)),
        })
    }

    /// `name(args, …)`, the cursor on its `(`.
    fn call(&mut self, w: String, span: Span) -> Result<Ast, ExprError> {
        self.bump();
        let mut args = Vec::new();
        if !self.is_op(")") {
            loop {
                args.push(self.expr(0)?);
                if !self.is_op(",") {
                    break;
                }
                self.bump();
            }
        }
        if !self.is_op(")") {
            return Err(self.err_here(format!(
                "expected `,` or `)` in the arguments of `{w}(`, found {}",
                self.peek().describe()
            )));
        }
        let end = self.bump().1.end;
        Ok(Ast::Call(w, args, span, end))
    }

    /// The error for token `t` where an operand was expected.
    fn not_an_expression(&self, t: Tok, span: Span) -> ExprError {
        let msg = if matches!(t, Tok::End) {
            let after = self.toks[..self.pos]
                .iter()
                .rev()
                .find(|(t, _)| !matches!(t, Tok::End))
                .map(|(t, _)| format!(" after {}", t.describe()))
                .unwrap_or_default();
            format!("expected an expression{after}, found the end of the expression")
        } else {
            let prev = if self.pos >= 2 {
                format!(" after {}", self.toks[self.pos - 2].0.describe())
            } else {
                String::new()
            };
            format!("expected an expression{prev}, found {}", t.describe())
        };
        ExprError::new(self.src, span, msg)
    }
}
