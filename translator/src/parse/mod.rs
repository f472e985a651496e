//! The parser: preprocessed tokens to an [`ast::TranslationUnit`].
//!
//! A hand-written recursive-descent parser for C99 with the OpenCL C
//! additions (address-space qualifiers, `__kernel`, vector literals,
//! `vec_step`, attributes anywhere C allows them). Typedef names are tracked
//! in scopes because C cannot be parsed without knowing them. On an error it
//! reports, skips to a likely statement or declaration boundary and goes on,
//! so one build logs every error.
//!
//! Keywords are identifiers to the lexer. The parser reads the
//! preprocessor's tokens, whose spellings are already interned symbols:
//! before parsing, every identifier gets its keyword class (decided once
//! per distinct spelling), so the parser tests keywords and typedef names
//! by comparing bytes and indexing arrays by symbol, never by comparing or
//! hashing strings.
//!
//! This module holds the `Parser`, its token reading, error recovery and
//! the top level; `keywords` classifies identifiers, and `declarations`,
//! `declarators`, `statements` and `expressions` parse what they say.
//!
//! [`ast::TranslationUnit`]: crate::ast::TranslationUnit

mod declarations;
mod declarators;
mod expressions;
mod keywords;
mod lambdas;
mod namespaces;
mod range_for;
mod statements;

use std::rc::Rc;

use crate::ast::{Expr, ExprKind, ExternalDecl, Name, TranslationUnit};
use crate::diagnostic::{Diagnostics, FileId, Location};
use crate::language::NOT_YET;
use crate::lexer::{token_len, CompactToken, Interner, Spellings};
use crate::token::{Punct, Token, TokenKind};
use keywords::{classify, Kw};

/// Parses a whole translation unit; errors go to `diags`. The interner
/// returned spells the tree's names.
pub fn parse(tokens: &[Token], diags: &mut Diagnostics) -> (TranslationUnit, Interner) {
    let (tokens, interner) = intern_tokens(tokens);
    let mut parser = Parser::new(
        tokens,
        Rc::new(interner.spellings().clone()),
        diags.with_same_settings(),
        false,
    );
    let mut unit = TranslationUnit::default();
    while let Some(item) = parser.next_item() {
        unit.items.push(item);
    }
    diags.append(parser.into_diagnostics());
    (unit, interner)
}

/// Public tokens in the preprocessor's form. Tokens from one lexer or
/// preprocessor share one allocation per spelling, so a spelling is found
/// by its address and hashed only on its first sight.
fn intern_tokens(tokens: &[Token]) -> (Vec<CompactToken>, Interner) {
    const SLOTS: usize = 1024;
    let mut interner = Interner::default();
    let mut recent: Vec<(usize, u32)> = vec![(0, 0); SLOTS];
    let compact = tokens
        .iter()
        .map(|t| {
            let address = t.text.as_ptr() as usize;
            let slot = (address >> 4) & (SLOTS - 1);
            let (known, sym) = recent[slot];
            // The same address and length is the same text while `tokens`
            // is borrowed.
            let sym = if known == address && interner.get(sym).len() == t.text.len() {
                sym
            } else {
                let sym = interner.sym(&t.text);
                recent[slot] = (address, sym);
                sym
            };
            CompactToken {
                location: t.location,
                sym,
                kind: t.kind,
                flags: u8::from(t.leading_space),
                len: token_len(t.text.len()),
            }
        })
        .collect();
    (compact, interner)
}

/// The source text a node being built covers: its tokens' and its
/// children's, in the file of the token it starts from (its caret). What
/// lies in another file (past an `#include` in the middle of the node) is
/// left out, so that the range is always one file's.
#[derive(Clone, Copy)]
struct Extent {
    file: u32,
    start: u32,
    end: u32,
}

impl Extent {
    #[inline]
    fn of(t: CompactToken) -> Self {
        Extent {
            file: t.location.file,
            start: t.location.offset,
            end: t.end(),
        }
    }

    #[inline]
    fn token(self, t: CompactToken) -> Self {
        self.cover(t.location.file, t.location.offset, t.end())
    }

    #[inline]
    fn expr(self, e: &Expr) -> Self {
        self.cover(e.location.file, e.start, e.end)
    }

    #[inline]
    fn cover(self, file: u32, start: u32, end: u32) -> Self {
        if file != self.file {
            return self;
        }
        Extent {
            file,
            start: self.start.min(start),
            end: self.end.max(end),
        }
    }

    /// The expression `kind` over this text, its caret at `location`.
    #[inline]
    fn make(self, kind: ExprKind, location: Location) -> Expr {
        Expr {
            kind,
            location,
            start: self.start,
            end: self.end,
        }
    }
}

/// How deep a program may nest: parentheses, brackets, braces, statements
/// in statements (an `else if` arm is one level), unary operators, and
/// the operators of a chain (`a + b + c` nests its tree one level per
/// `+`). Deeper is an error at the parser, so that no later stage meets
/// a deeper tree: they walk trees by recursion, on stacks that grow as
/// needed (`crate::stack`), and this bounds what they take. clang has no
/// such limit but for brackets (256, `-fbracket-depth`); this is far
/// above it, and above what the 1 MiB-stack tests build
/// (`translator/tests/deep_nesting.rs`).
pub(crate) const MAX_NESTING: u32 = 10_000;

/// The parser of one translation unit: it reads the preprocessor's own
/// tokens (each a symbol of the preprocessor's interner), and
/// [`Parser::next_item`] parses one external declaration at a time.
pub(crate) struct Parser {
    /// The tokens, ending with the Eof.
    tokens: Vec<CompactToken>,
    /// The spelling of each symbol, shared with the checker.
    spellings: Rc<Spellings>,
    /// Each token's keyword class, parallel to `tokens`.
    words: Vec<Kw>,
    /// The Eof every position past the tokens reads.
    eof: CompactToken,
    pos: usize,
    diags: Diagnostics,
    /// Names declared in each scope, innermost last, and whether each is a
    /// typedef: an ordinary declaration in an inner scope hides a typedef.
    ///
    /// `names` holds the innermost declaration of each spelling (indexed by
    /// symbol), `shadowed` what each declaration replaced (to restore at the
    /// end of its scope), and `scope_starts` where each open scope's
    /// declarations begin in `shadowed`.
    names: Vec<Option<declarations::Declared>>,
    shadowed: Vec<(u32, Option<declarations::Declared>)>,
    scope_starts: Vec<usize>,
    depth: u32,
    /// Set when nesting went past [`MAX_NESTING`]: as clang's bracket
    /// depth error, that ends the parse; what the unwinding reports after
    /// it (this many diagnostics were there) is dropped.
    halted_at: Option<usize>,
    /// A `;` that was missing after a struct body and has been reported:
    /// the next `;` the parser looks for is taken as found.
    assumed_semicolon: bool,
    /// C++ for OpenCL rather than OpenCL C.
    cxx: bool,
    /// The open `extern "C" {` and `namespace {` blocks at file scope,
    /// innermost last.
    open_blocks: Vec<OpenBlock>,
    /// C++: the namespaces, and the lookup of names in them.
    namespaces: namespaces::Namespaces,
    /// How many record bodies enclose the parse.
    record_depth: u32,
    /// C++: the member type names of each class (by its symbol).
    member_types: std::collections::HashMap<u32, Vec<u32>>,
    /// C++: the parameters (by whether each is a value) of the class
    /// template whose `struct` is about to be read.
    class_template_params: Option<Vec<bool>>,
    /// C++: the lambdas whose bodies enclose the parse, innermost last.
    lambda_frames: Vec<lambdas::LambdaFrame>,
    /// The symbol of each `operator op` of
    /// [`crate::language::OVERLOADABLE_OPERATORS`], in its order.
    operator_names: [Name; crate::language::OVERLOADABLE_OPERATORS.len()],
    /// C++: the symbols that name function templates, which `name<`
    /// follows with template arguments.
    /// Each template's parameters, by whether each is a value.
    template_names: std::collections::HashMap<u32, Vec<bool>>,
    /// The names of member function templates declared so far, each with
    /// which of its parameters are values: `o.name<` starts their
    /// template arguments.
    member_template_names: std::collections::HashMap<u32, Vec<bool>>,
    /// The symbols spelt `begin` and `end`, once a range-based `for`
    /// asked for them.
    range_member_names: Option<Option<(Name, Name)>>,
    /// Friend functions of the class just parsed: the next items, after
    /// the declaration that has the class.
    hoisted: Vec<ExternalDecl>,
    /// How many function bodies enclose the parse: in one, C++'s `T x(a)`
    /// declares `x` constructed from `a` (see `declarator_inner`).
    function_depth: u32,
    /// Where the last abstract declarator parsed would have had its name:
    /// the place of clang's "expected identifier or '('" where a name is
    /// required.
    missing_name_at: Location,
}

/// A block of file-scope declarations, closed by its `}`.
enum OpenBlock {
    /// `extern "C" {`.
    Linkage,
    /// `namespace a::b {`: how many namespaces it opened.
    Namespace(usize),
}

/// The error has been reported; the caller recovers.
struct Reported;

type PResult<T> = Result<T, Reported>;

impl Parser {
    /// A parser of `tokens` (which end with the Eof), whose symbols
    /// `spellings` spells; its diagnostics go to `diags`.
    pub(crate) fn new(
        tokens: Vec<CompactToken>,
        spellings: Rc<Spellings>,
        diags: Diagnostics,
        cxx: bool,
    ) -> Self {
        let eof = match tokens.last() {
            Some(&t) => CompactToken {
                kind: TokenKind::Eof,
                ..t
            },
            None => CompactToken {
                location: Location::new(FileId(0), 0),
                sym: 0,
                kind: TokenKind::Eof,
                flags: 0,
                len: 0,
            },
        };
        // C++'s operator functions are named by symbols no token spells.
        let mut spellings = spellings;
        let operator_names = {
            let spellings = Rc::make_mut(&mut spellings);
            crate::language::OVERLOADABLE_OPERATORS
                .map(|op| Name(spellings.push(&crate::language::operator_name(op))))
        };
        let mut parser = Parser {
            words: Vec::new(),
            operator_names,
            names: vec![None; spellings.len()],
            tokens,
            spellings,
            eof,
            pos: 0,
            diags,
            shadowed: Vec::new(),
            scope_starts: Vec::new(),
            depth: 0,
            halted_at: None,
            assumed_semicolon: false,
            cxx,
            open_blocks: Vec::new(),
            namespaces: Default::default(),
            record_depth: 0,
            lambda_frames: Vec::new(),
            class_template_params: None,
            member_types: Default::default(),
            function_depth: 0,
            template_names: Default::default(),
            member_template_names: Default::default(),
            range_member_names: None,
            hoisted: Vec::new(),
            missing_name_at: Location::new(FileId(0), 0),
        };
        parser.words = classify(&parser.tokens, &parser.spellings, cxx);
        if cxx && parser.join_qualified_names() {
            parser.words = classify(&parser.tokens, &parser.spellings, cxx);
        }
        parser.refuse_unsupported_cxx();
        if cxx {
            parser.declare_remove_address_space();
        }
        parser
    }

    /// The symbol of identifier `word` where the program spells it.
    fn symbol_spelled(&self, word: &str) -> Option<u32> {
        (self.tokens.iter())
            .find(|t| t.kind == TokenKind::Identifier && self.spellings.get(t.sym) == word)
            .map(|t| t.sym)
    }

    /// C++ for OpenCL's `__remove_address_space<T>::type` (seed 004): a
    /// class template of the language, whose member type the checker
    /// makes (`check/member_types.rs`).
    fn declare_remove_address_space(&mut self) {
        let Some(template) = self.symbol_spelled(crate::language::REMOVE_ADDRESS_SPACE) else {
            return;
        };
        let member = self.symbol_spelled("type");
        self.template_names.insert(template, vec![false]);
        self.declare_name(Name(template), true);
        self.member_types
            .entry(template)
            .or_default()
            .extend(member);
    }

    /// Reads a C++ linkage specification's `extern "C"` or `extern "C++"`
    /// and the `{` of a block form, if they come next. With no overloading
    /// and no name mangling yet, both linkages name a function by its name
    /// alone, so what follows is an ordinary declaration.
    fn linkage_specification(&mut self) -> bool {
        let language = self.peek_at(1);
        if self.kw() != Kw::Storage(crate::ast::StorageClass::Extern)
            || language.kind != TokenKind::StringLiteral
        {
            return false;
        }
        if !matches!(self.text(language), "\"C\"" | "\"C++\"") {
            let text = self.text(language).to_owned();
            self.diags.error(
                language.location,
                format!("unknown linkage language {text}"),
            );
        }
        self.pos += 2;
        if self.eat(Punct::LBrace) {
            self.open_blocks.push(OpenBlock::Linkage);
        }
        true
    }

    /// Reports a C++ feature clvulkan lacks at the next token and ends the
    /// parse, as [`Parser::refuse_unsupported_cxx`] does.
    fn unsupported_cxx(&mut self, at: Location, features: &str) -> Reported {
        self.diags.error(at, format!("{features} are {NOT_YET}"));
        self.halted_at = Some(self.diags.len());
        Reported
    }

    /// Reports the first use of each C++ keyword whose feature clvulkan
    /// lacks and ends the parse there: parsed as C, such code would only
    /// bury that one message under errors it causes.
    fn refuse_unsupported_cxx(&mut self) {
        let mut reported = std::collections::HashSet::new();
        for (t, kw) in self.tokens.iter().zip(&self.words) {
            if *kw == Kw::CxxUnsupported && reported.insert(t.sym) {
                let word = &self.spellings[t.sym as usize];
                let message = match crate::language::excluded(word) {
                    Some(message) => message,
                    None => format!("'{word}' is {NOT_YET}"),
                };
                self.diags.error(t.location, message);
            }
        }
        if !reported.is_empty() {
            self.halted_at = Some(self.diags.len());
        }
    }

    /// The spelling of each symbol: what the tree's names are.
    pub(crate) fn spellings(&self) -> &Rc<Spellings> {
        &self.spellings
    }

    pub(crate) fn into_diagnostics(self) -> Diagnostics {
        self.diags
    }

    /// How many errors the parser has reported so far.
    pub(crate) fn error_count(&self) -> usize {
        self.diags.error_count()
    }

    // The reads below return the Eof (and its `NotIdent` class) past the
    // end through `get`: one comparison, where clamping the index and then
    // indexing took two.
    #[inline]
    fn peek(&self) -> CompactToken {
        match self.tokens.get(self.pos) {
            Some(&t) => t,
            None => self.past_end(),
        }
    }

    #[inline]
    fn peek_at(&self, n: usize) -> CompactToken {
        match self.tokens.get(self.pos + n) {
            Some(&t) => t,
            None => self.past_end(),
        }
    }

    #[cold]
    fn past_end(&self) -> CompactToken {
        self.eof
    }

    /// The keyword class of the token at `n`.
    #[inline]
    fn kw_at(&self, n: usize) -> Kw {
        match self.words.get(self.pos + n) {
            Some(&kw) => kw,
            None => Kw::NotIdent,
        }
    }

    /// The spelling of `t`, one of this parser's tokens.
    #[inline]
    fn text(&self, t: CompactToken) -> &str {
        self.spellings.get(t.sym)
    }

    #[inline]
    fn kw(&self) -> Kw {
        self.kw_at(0)
    }

    #[inline]
    fn bump(&mut self) -> CompactToken {
        let t = self.peek();
        if t.kind != TokenKind::Eof {
            self.pos += 1;
        }
        t
    }

    #[inline]
    fn at(&self, p: Punct) -> bool {
        self.peek().is_punct(p)
    }

    #[inline]
    fn eat(&mut self, p: Punct) -> bool {
        if p == Punct::Semicolon && self.assumed_semicolon {
            self.assumed_semicolon = false;
            return true;
        }
        if self.at(p) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    #[inline]
    fn eat_kw(&mut self, kw: Kw) -> bool {
        if self.kw() == kw {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// `operator op` as a declarator's name, the `operator` next.
    fn operator_function_name(&mut self) -> PResult<(Name, Location)> {
        let keyword = self.bump();
        let t = self.peek();
        let op = match t.kind {
            _ if self.kw() == Kw::New => " new",
            _ if self.kw() == Kw::Delete => " delete",
            TokenKind::Punct(Punct::LBracket) if self.peek_at(1).is_punct(Punct::RBracket) => {
                self.pos += 1;
                "[]"
            }
            TokenKind::Punct(Punct::LParen) if self.peek_at(1).is_punct(Punct::RParen) => {
                self.pos += 1;
                "()"
            }
            TokenKind::Punct(p) => p.spelling(),
            _ => "",
        };
        let Some(index) = crate::language::OVERLOADABLE_OPERATORS
            .iter()
            .position(|&o| o == op)
        else {
            return Err(self.unsupported_cxx(t.location, "overloads of this operator"));
        };
        self.pos += 1;
        Ok((self.operator_names[index], keyword.location))
    }

    /// Whether C++'s `::` comes next: the lexer, made for C, gives two
    /// `:`s, which are adjacent only there.
    fn at_scope_operator(&self) -> bool {
        self.scope_operator_at(0)
    }

    /// Whether C++'s `::` is the `n`th token on.
    fn scope_operator_at(&self, n: usize) -> bool {
        let (first, second) = (self.peek_at(n), self.peek_at(n + 1));
        first.is_punct(Punct::Colon)
            && second.is_punct(Punct::Colon)
            && first.location.file == second.location.file
            && first.location.offset + 1 == second.location.offset
    }

    #[inline]
    fn loc(&self) -> Location {
        self.peek().location
    }

    #[cold]
    #[inline(never)]
    fn error_here(&mut self, what: &str) -> Reported {
        let t = self.peek();
        self.diags.error(t.location, format!("expected {what}"));
        Reported
    }

    #[inline]
    fn expect(&mut self, p: Punct) -> PResult<()> {
        if self.eat(p) {
            return Ok(());
        }
        Err(self.expected_punct(p))
    }

    #[cold]
    #[inline(never)]
    fn expected_punct(&mut self, p: Punct) -> Reported {
        self.error_here(&format!("'{}'", p.spelling()))
    }

    /// Just after the previous token: where clang reports a missing `;`,
    /// since the next token is often on another line.
    fn after_previous(&self) -> Location {
        match self.pos.checked_sub(1).and_then(|i| self.tokens.get(i)) {
            Some(prev) => {
                let mut location = prev.location;
                location.offset += self.text(*prev).len() as u32;
                location
            }
            None => self.loc(),
        }
    }

    /// The offset of token `t` when it is in the file of token `anchor`,
    /// else that of `anchor`: for a location kept as an offset beside
    /// `anchor`'s.
    #[inline]
    fn in_file_of(&self, anchor: CompactToken, t: CompactToken) -> u32 {
        if t.location.file == anchor.location.file {
            t.location.offset
        } else {
            anchor.location.offset
        }
    }

    /// The text from token `first` to the last one read, for a construct
    /// that started at `first`.
    #[inline]
    fn extent_since(&self, first: CompactToken) -> Extent {
        let extent = Extent::of(first);
        match self.pos.checked_sub(1).and_then(|i| self.tokens.get(i)) {
            Some(&last) => extent.token(last),
            None => extent,
        }
    }

    /// `;` ending a construct: "expected ';' after expression" and so on.
    #[inline]
    fn expect_semicolon(&mut self, context: &str) -> PResult<()> {
        if self.eat(Punct::Semicolon) {
            return Ok(());
        }
        Err(self.missing_semicolon(context))
    }

    #[cold]
    #[inline(never)]
    fn missing_semicolon(&mut self, context: &str) -> Reported {
        let location = self.after_previous();
        self.diags
            .error(location, format!("expected ';' {context}"));
        Reported
    }

    #[inline]
    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.too_deep());
        }
        Ok(())
    }

    /// Parses with `f` one level deeper: counted against [`MAX_NESTING`],
    /// on a stack with room for it.
    #[inline]
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        self.enter()?;
        let result = crate::stack::guard_at(self.depth, || f(self));
        self.leave();
        result
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&mut self) -> Reported {
        if self.halted_at.is_none() {
            self.diags.error(
                self.loc(),
                format!("nesting level exceeded maximum of {MAX_NESTING}"),
            );
            self.halted_at = Some(self.diags.len());
        }
        // Every level unwinds at once at the Eof.
        self.pos = self.tokens.len();
        Reported
    }

    #[inline]
    fn leave(&mut self) {
        self.depth -= 1;
    }

    /// Skips to just after the next `;` at this nesting level, or to a `}`
    /// closing the current block, so the next statement parses cleanly.
    fn recover(&mut self) {
        let mut depth = 0i32;
        loop {
            let t = self.peek();
            match t.kind {
                TokenKind::Eof => return,
                TokenKind::Punct(Punct::LBrace | Punct::LParen | Punct::LBracket) => depth += 1,
                TokenKind::Punct(Punct::RParen | Punct::RBracket) => depth -= 1,
                TokenKind::Punct(Punct::RBrace) => {
                    if depth <= 0 {
                        return;
                    }
                    depth -= 1;
                    if depth == 0 {
                        self.pos += 1;
                        return;
                    }
                }
                TokenKind::Punct(Punct::Semicolon) if depth <= 0 => {
                    self.pos += 1;
                    return;
                }
                _ => {}
            }
            self.pos += 1;
        }
    }

    /// Parses the next external declaration or file-scope pragma, skipping
    /// empty declarations and stray `}`.
    pub(crate) fn next_item(&mut self) -> Option<ExternalDecl> {
        if !self.hoisted.is_empty() {
            return Some(self.hoisted.remove(0));
        }
        loop {
            if let Some(mark) = self.halted_at {
                self.diags.truncate(mark);
                return None;
            }
            match self.peek().kind {
                TokenKind::Eof => return None,
                TokenKind::Pragma => {
                    let pragma = self.peek().sym;
                    self.pos += 1;
                    let text = &self.spellings[pragma as usize];
                    self.cxx = crate::language::switched_to(text).unwrap_or(self.cxx);
                    return Some(ExternalDecl::Pragma(crate::ast::Name(pragma)));
                }
                _ => {}
            }
            if self.eat(Punct::Semicolon) {
                continue;
            }
            if self.cxx && self.linkage_specification() {
                continue;
            }
            if self.cxx && self.namespace_item() {
                continue;
            }
            if self.at(Punct::RBrace) {
                if let Some(block) = self.open_blocks.pop() {
                    if let OpenBlock::Namespace(opened) = block {
                        self.close_namespaces(opened);
                    }
                    self.pos += 1;
                    continue;
                }
            }
            if self.at(Punct::RBrace) {
                self.diags
                    .error(self.loc(), "extraneous closing brace ('}')");
                self.pos += 1;
                continue;
            }
            let start = self.pos;
            match self.external_decl() {
                Ok(item) => return Some(item),
                Err(Reported) => {
                    self.recover();
                    if self.pos == start {
                        self.pos += 1;
                    }
                }
            }
        }
    }
}
