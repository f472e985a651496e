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
//! before parsing, every identifier gets its [`Kw`] (one table lookup per
//! distinct spelling), so the parser tests keywords and typedef names by
//! comparing bytes and indexing arrays by symbol, never by comparing or
//! hashing strings.

use crate::ast::*;
use crate::diagnostic::{Diagnostics, Location};
use crate::lexer::{CompactToken, Interner};
use crate::token::{Punct, Token, TokenKind};
use crate::types;
use std::rc::Rc;
use std::sync::Arc;

/// Parses a whole translation unit; errors go to `diags`. The interner
/// returned spells the tree's names.
pub fn parse(tokens: &[Token], diags: &mut Diagnostics) -> (TranslationUnit, Interner) {
    let (tokens, interner) = intern_tokens(tokens);
    let mut parser = Parser::new(
        tokens,
        interner.spellings().to_vec(),
        diags.with_same_settings(),
    );
    let mut unit = TranslationUnit::default();
    while let Some(item) = parser.next_item() {
        unit.items.push(item);
    }
    diags.append(parser.into_diagnostics());
    (unit, interner)
}

/// Each token's keyword class, classifying each distinct spelling once.
fn classify(tokens: &[CompactToken], spellings: &[Rc<str>]) -> Vec<Kw> {
    let mut kw_of_sym: Vec<Option<Kw>> = vec![None; spellings.len()];
    tokens
        .iter()
        .map(|t| {
            if t.kind == TokenKind::Identifier {
                *kw_of_sym[t.sym as usize]
                    .get_or_insert_with(|| keyword(&spellings[t.sym as usize]))
            } else {
                Kw::NotIdent
            }
        })
        .collect()
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
            }
        })
        .collect();
    (compact, interner)
}

/// Nesting deeper than this is reported instead of overflowing the stack.
const MAX_DEPTH: u32 = 256;

/// What an identifier means to the parser, decided by its spelling alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kw {
    /// The token is not an identifier.
    NotIdent,
    /// An ordinary name, possibly a typedef name.
    Name,
    /// A built-in type name that is not a keyword (`float4`, `size_t`, ...).
    BuiltinType,
    Storage(StorageClass),
    Const,
    Volatile,
    Restrict,
    AddressSpace(AddressSpace),
    Kernel,
    /// `inline`, `__inline`.
    Inline,
    /// `__inline__`: a specifier like `inline`, but not one that announces a
    /// declaration at the start of a statement.
    GnuInline,
    /// Image and pipe access qualifiers; kept for later, ignored now.
    Access,
    /// The GNU attribute keyword (`__attribute__` or `__attribute`). Exact
    /// spellings only: an identifier that merely starts like one
    /// (`__attributes`) is an ordinary name, and treating it as an attribute
    /// would make the specifier loops spin without consuming it.
    Attribute,
    Scalar(ScalarWord),
    Struct,
    Union,
    Enum,
    If,
    Else,
    While,
    Do,
    For,
    Switch,
    Case,
    Default,
    Break,
    Continue,
    Return,
    Goto,
    Sizeof,
    VecStep,
    Alignof,
}

/// A keyword that spells (part of) a scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ScalarWord {
    Void,
    Bool,
    Char,
    Short,
    Int,
    Long,
    Signed,
    Unsigned,
    Half,
    Float,
    Double,
}

/// The class of identifier `word`.
fn keyword(word: &str) -> Kw {
    match word {
        "typedef" => Kw::Storage(StorageClass::Typedef),
        "extern" => Kw::Storage(StorageClass::Extern),
        "static" => Kw::Storage(StorageClass::Static),
        "auto" => Kw::Storage(StorageClass::Auto),
        "register" => Kw::Storage(StorageClass::Register),
        "const" | "__const" => Kw::Const,
        "volatile" | "__volatile" => Kw::Volatile,
        "restrict" | "__restrict" => Kw::Restrict,
        "__global" | "global" => Kw::AddressSpace(AddressSpace::Global),
        "__local" | "local" => Kw::AddressSpace(AddressSpace::Local),
        "__constant" | "constant" => Kw::AddressSpace(AddressSpace::Constant),
        "__private" | "private" => Kw::AddressSpace(AddressSpace::Private),
        "__generic" | "generic" => Kw::AddressSpace(AddressSpace::Generic),
        "__kernel" | "kernel" => Kw::Kernel,
        "inline" | "__inline" => Kw::Inline,
        "__inline__" => Kw::GnuInline,
        "__read_only" | "read_only" | "__write_only" | "write_only" | "__read_write"
        | "read_write" => Kw::Access,
        "__attribute__" | "__attribute" => Kw::Attribute,
        "void" => Kw::Scalar(ScalarWord::Void),
        "bool" | "_Bool" => Kw::Scalar(ScalarWord::Bool),
        "char" => Kw::Scalar(ScalarWord::Char),
        "short" => Kw::Scalar(ScalarWord::Short),
        "int" => Kw::Scalar(ScalarWord::Int),
        "long" => Kw::Scalar(ScalarWord::Long),
        "signed" | "__signed" | "__signed__" => Kw::Scalar(ScalarWord::Signed),
        "unsigned" => Kw::Scalar(ScalarWord::Unsigned),
        "half" => Kw::Scalar(ScalarWord::Half),
        "float" => Kw::Scalar(ScalarWord::Float),
        "double" => Kw::Scalar(ScalarWord::Double),
        "struct" => Kw::Struct,
        "union" => Kw::Union,
        "enum" => Kw::Enum,
        "if" => Kw::If,
        "else" => Kw::Else,
        "while" => Kw::While,
        "do" => Kw::Do,
        "for" => Kw::For,
        "switch" => Kw::Switch,
        "case" => Kw::Case,
        "default" => Kw::Default,
        "break" => Kw::Break,
        "continue" => Kw::Continue,
        "return" => Kw::Return,
        "goto" => Kw::Goto,
        "sizeof" => Kw::Sizeof,
        "vec_step" => Kw::VecStep,
        "_Alignof" | "__alignof__" | "__alignof" => Kw::Alignof,
        _ if types::is_builtin_type_name(word) => Kw::BuiltinType,
        _ => Kw::Name,
    }
}

impl Kw {
    /// Can this word start a type name (in a cast or `sizeof`)? Typedef
    /// names can too; the parser checks those separately.
    fn starts_type(self) -> bool {
        matches!(
            self,
            Kw::BuiltinType
                | Kw::Const
                | Kw::Volatile
                | Kw::Restrict
                | Kw::AddressSpace(_)
                | Kw::Access
                | Kw::Attribute
                | Kw::Scalar(_)
                | Kw::Struct
                | Kw::Union
                | Kw::Enum
        )
    }
}

fn add_scalar_word(words: &mut ScalarWords, word: ScalarWord) {
    match word {
        ScalarWord::Void => words.void = true,
        ScalarWord::Bool => words.bool_ = true,
        ScalarWord::Char => words.char_ = true,
        ScalarWord::Short => words.short = true,
        ScalarWord::Int => words.int = true,
        ScalarWord::Long => words.long += 1,
        ScalarWord::Signed => words.signed = true,
        ScalarWord::Unsigned => words.unsigned = true,
        ScalarWord::Half => words.half = true,
        ScalarWord::Float => words.float = true,
        ScalarWord::Double => words.double = true,
    }
}

/// Sets the qualifier `kw` names; false when it names none.
fn add_qualifier(q: &mut Qualifiers, kw: Kw) -> bool {
    match kw {
        Kw::Const => q.is_const = true,
        Kw::Volatile => q.is_volatile = true,
        Kw::Restrict => q.is_restrict = true,
        Kw::AddressSpace(space) => q.address_space = Some(space),
        _ => return false,
    }
    true
}

/// The parser of one translation unit: it reads the preprocessor's own
/// tokens (each a symbol of the preprocessor's interner), and
/// [`Parser::next_item`] parses one external declaration at a time.
pub(crate) struct Parser {
    /// The tokens, ending with the Eof.
    tokens: Vec<CompactToken>,
    /// The spelling of each symbol.
    spellings: Vec<Rc<str>>,
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
    names: Vec<Option<bool>>,
    shadowed: Vec<(u32, Option<bool>)>,
    scope_starts: Vec<usize>,
    depth: u32,
    /// A `;` that was missing after a struct body and has been reported:
    /// the next `;` the parser looks for is taken as found.
    assumed_semicolon: bool,
}

/// The error has been reported; the caller recovers.
struct Reported;

type PResult<T> = Result<T, Reported>;

impl Parser {
    /// A parser of `tokens` (which end with the Eof), whose symbols
    /// `spellings` spells; its diagnostics go to `diags`.
    pub(crate) fn new(
        tokens: Vec<CompactToken>,
        spellings: Vec<Rc<str>>,
        diags: Diagnostics,
    ) -> Self {
        let eof = match tokens.last() {
            Some(&t) => CompactToken {
                kind: TokenKind::Eof,
                ..t
            },
            None => CompactToken {
                location: Location::new(crate::diagnostic::FileId(0), 0),
                sym: 0,
                kind: TokenKind::Eof,
                flags: 0,
            },
        };
        Parser {
            words: classify(&tokens, &spellings),
            names: vec![None; spellings.len()],
            tokens,
            spellings,
            eof,
            pos: 0,
            diags,
            shadowed: Vec::new(),
            scope_starts: Vec::new(),
            depth: 0,
            assumed_semicolon: false,
        }
    }

    /// The spelling of each symbol: what the tree's names are.
    pub(crate) fn spellings(&self) -> &[Rc<str>] {
        &self.spellings
    }

    pub(crate) fn into_diagnostics(self) -> Diagnostics {
        self.diags
    }

    // ---- token helpers ----

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
    fn text(&self, t: CompactToken) -> &Rc<str> {
        &self.spellings[t.sym as usize]
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
        if self.depth > MAX_DEPTH {
            return Err(self.too_deep());
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_deep(&mut self) -> Reported {
        self.diags.error(self.loc(), "nesting too deep");
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

    // ---- typedef scopes ----

    /// Is the token at `n` a typedef name in the current scope?
    #[inline]
    fn is_typedef_at(&self, n: usize) -> bool {
        self.kw_at(n) != Kw::NotIdent && self.names[self.peek_at(n).sym as usize] == Some(true)
    }

    fn declare_name(&mut self, name: Name, is_typedef: bool) {
        let id = name.0;
        let previous = self.names[id as usize].replace(is_typedef);
        // At file scope nothing is ever restored.
        if !self.scope_starts.is_empty() {
            self.shadowed.push((id, previous));
        }
    }

    fn push_scope(&mut self) {
        self.scope_starts.push(self.shadowed.len());
    }

    fn pop_scope(&mut self) {
        let Some(start) = self.scope_starts.pop() else {
            return;
        };
        for &(id, previous) in self.shadowed[start..].iter().rev() {
            self.names[id as usize] = previous;
        }
        self.shadowed.truncate(start);
    }

    /// Does the token at `n` start a type name (in a cast or sizeof)?
    #[inline]
    fn starts_type(&self, n: usize) -> bool {
        match self.kw_at(n) {
            Kw::NotIdent => false,
            kw => kw.starts_type() || self.is_typedef_at(n),
        }
    }

    /// Does the next token begin a declaration that cannot continue the
    /// current one (after a struct body, a missing `;`)?
    fn starts_new_declaration(&self) -> bool {
        matches!(
            self.kw(),
            Kw::Storage(StorageClass::Typedef | StorageClass::Extern | StorageClass::Static)
                | Kw::Kernel
                | Kw::Struct
                | Kw::Union
                | Kw::Enum
                | Kw::Scalar(_)
                | Kw::BuiltinType
        )
    }

    fn starts_declaration(&self) -> bool {
        match self.kw() {
            Kw::NotIdent => false,
            Kw::Storage(_) | Kw::Inline | Kw::Kernel => true,
            // `T * x` with T a typedef is a declaration; `x * y` is not. Two
            // names in a row can only be a declaration with an unknown type.
            _ => self.starts_type(0) || self.peek_at(1).kind == TokenKind::Identifier,
        }
    }

    // ---- top level ----

    /// Parses the next external declaration, skipping empty ones, stray
    /// `}` and pragmas at file scope.
    pub(crate) fn next_item(&mut self) -> Option<ExternalDecl> {
        loop {
            match self.peek().kind {
                TokenKind::Eof => return None,
                TokenKind::Pragma => {
                    self.pos += 1;
                    continue;
                }
                _ => {}
            }
            if self.eat(Punct::Semicolon) {
                continue;
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

    fn external_decl(&mut self) -> PResult<ExternalDecl> {
        let specs = self.decl_specs()?;
        if self.eat(Punct::Semicolon) {
            return Ok(ExternalDecl::Declaration(Declaration {
                location: specs.location,
                specs,
                declarators: Vec::new(),
            }));
        }
        let declarator = self.declarator()?;
        if self.at(Punct::LBrace) {
            if !matches!(declarator.derived.first(), Some(Derived::Function { .. })) {
                return Err(self.error_here("';' after declaration"));
            }
            if let Some((name, _)) = &declarator.name {
                self.declare_name(*name, false);
            }
            let body = self.function_body(&declarator)?;
            return Ok(ExternalDecl::Function(FunctionDef {
                specs,
                declarator,
                body,
            }));
        }
        let decl = self.rest_of_declaration(specs, declarator)?;
        Ok(ExternalDecl::Declaration(decl))
    }

    fn function_body(&mut self, declarator: &Declarator) -> PResult<Block> {
        // Parameters are in scope in the body.
        self.push_scope();
        if let Some(Derived::Function { params, .. }) = declarator.derived.first() {
            for p in params {
                if let Some((name, _)) = &p.declarator.name {
                    self.declare_name(*name, false);
                }
            }
        }
        let body = self.block();
        self.pop_scope();
        body
    }

    /// After the first declarator: initialisers, more declarators, `;`.
    fn rest_of_declaration(&mut self, specs: DeclSpecs, first: Declarator) -> PResult<Declaration> {
        let is_typedef = specs.storage == Some(StorageClass::Typedef);
        let location = specs.location;
        let mut declarators = Vec::new();
        let mut declarator = first;
        loop {
            if let Some((name, _)) = &declarator.name {
                self.declare_name(*name, is_typedef);
            }
            let init = if self.eat(Punct::Assign) {
                Some(self.initializer()?)
            } else {
                None
            };
            declarators.push(InitDeclarator { declarator, init });
            if !self.eat(Punct::Comma) {
                break;
            }
            declarator = self.declarator()?;
        }
        self.expect_semicolon("at end of declaration")?;
        Ok(Declaration {
            specs,
            declarators,
            location,
        })
    }

    // ---- declarations ----

    fn attributes(&mut self, out: &mut Vec<Attribute>) -> PResult<()> {
        while self.kw() == Kw::Attribute {
            self.pos += 1;
            self.expect(Punct::LParen)?;
            self.expect(Punct::LParen)?;
            while !self.at(Punct::RParen) {
                let t = self.bump();
                if t.kind != TokenKind::Identifier {
                    self.pos -= 1;
                    return Err(self.error_here("attribute name"));
                }
                let name = Name(t.sym);
                let mut args = Vec::new();
                if self.eat(Punct::LParen) {
                    while !self.at(Punct::RParen) {
                        args.push(Arc::new(self.assignment_expr()?));
                        if !self.eat(Punct::Comma) {
                            break;
                        }
                    }
                    self.expect(Punct::RParen)?;
                }
                out.push(Attribute {
                    name,
                    args,
                    location: t.location,
                });
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            self.expect(Punct::RParen)?;
            self.expect(Punct::RParen)?;
        }
        Ok(())
    }

    fn decl_specs(&mut self) -> PResult<DeclSpecs> {
        let location = self.loc();
        let mut specs = DeclSpecs {
            storage: None,
            ty: TypeSpec::None,
            qualifiers: Qualifiers::default(),
            is_kernel: false,
            is_inline: false,
            attributes: Vec::new(),
            location,
            type_location: location,
        };
        let mut words = ScalarWords::default();
        let mut has_words = false;
        loop {
            let t = self.peek();
            let kw = self.kw();
            match kw {
                Kw::NotIdent => break,
                Kw::Storage(s) => {
                    if specs.storage.is_some() {
                        self.diags
                            .error(t.location, "cannot combine with previous storage class");
                    }
                    specs.storage = Some(s);
                    self.pos += 1;
                }
                Kw::Const | Kw::Volatile | Kw::Restrict => {
                    add_qualifier(&mut specs.qualifiers, kw);
                    self.pos += 1;
                }
                Kw::AddressSpace(space) => {
                    let before = specs.qualifiers.address_space;
                    if before.is_some() && before != Some(space) {
                        self.diags
                            .error(t.location, "multiple address spaces specified for type");
                    }
                    specs.qualifiers.address_space = Some(space);
                    self.pos += 1;
                }
                Kw::Kernel => {
                    specs.is_kernel = true;
                    self.pos += 1;
                }
                Kw::Inline | Kw::GnuInline => {
                    specs.is_inline = true;
                    self.pos += 1;
                }
                Kw::Access => self.pos += 1,
                Kw::Attribute => self.attributes(&mut specs.attributes)?,
                Kw::Scalar(word) => {
                    add_scalar_word(&mut words, word);
                    if !has_words {
                        specs.type_location = t.location;
                    }
                    has_words = true;
                    self.pos += 1;
                }
                Kw::Struct | Kw::Union if matches!(specs.ty, TypeSpec::None) => {
                    specs.type_location = t.location;
                    let record = self.record_spec()?;
                    let has_body = record.fields.is_some();
                    specs.ty = TypeSpec::Record(Arc::new(record));
                    if has_body && self.starts_new_declaration() {
                        // `struct S { ... }` then another declaration: the
                        // `;` is missing. Report it and carry on as if found.
                        let location = self.after_previous();
                        let keyword = if kw == Kw::Union { "union" } else { "struct" };
                        self.diags
                            .error(location, format!("expected ';' after {keyword}"));
                        self.assumed_semicolon = true;
                        break;
                    }
                }
                Kw::Enum if matches!(specs.ty, TypeSpec::None) => {
                    specs.type_location = t.location;
                    specs.ty = TypeSpec::Enum(Arc::new(self.enum_spec()?));
                }
                _ if !has_words && matches!(specs.ty, TypeSpec::None) => {
                    specs.type_location = t.location;
                    if kw == Kw::BuiltinType {
                        specs.ty = TypeSpec::Builtin(Name(t.sym));
                        self.pos += 1;
                    } else if self.is_typedef_at(0) {
                        specs.ty = TypeSpec::Typedef(Name(t.sym));
                        self.pos += 1;
                    } else if self.peek_at(1).kind == TokenKind::Identifier
                        || self.peek_at(1).is_punct(Punct::Star)
                    {
                        // An unknown name where a type must be (`flaot *p`,
                        // `float5 v`): the checker reports the unknown type.
                        specs.ty = TypeSpec::Typedef(Name(t.sym));
                        self.pos += 1;
                    } else {
                        break;
                    }
                }
                _ => break,
            }
        }
        if has_words {
            if !matches!(specs.ty, TypeSpec::None) {
                self.diags
                    .error(location, "cannot combine type keywords with another type");
            }
            specs.ty = TypeSpec::Scalar(words);
        }
        if matches!(specs.ty, TypeSpec::None)
            && specs.storage.is_none()
            && !specs.is_kernel
            && specs.qualifiers == Qualifiers::default()
        {
            return Err(self.error_here("a type"));
        }
        Ok(specs)
    }

    fn record_spec(&mut self) -> PResult<RecordSpec> {
        let kind = if self.kw() == Kw::Struct {
            RecordKind::Struct
        } else {
            RecordKind::Union
        };
        let kw = self.bump();
        let mut attributes = Vec::new();
        self.attributes(&mut attributes)?;
        let tag_location = self.loc();
        let tag = if !matches!(self.kw(), Kw::NotIdent | Kw::Attribute) {
            let t = self.bump();
            Some(Name(t.sym))
        } else {
            None
        };
        let fields = if self.eat(Punct::LBrace) {
            let mut fields = Vec::new();
            while !self.at(Punct::RBrace) && self.peek().kind != TokenKind::Eof {
                match self.field_decl() {
                    Ok(f) => fields.push(f),
                    Err(Reported) => self.recover(),
                }
            }
            self.expect(Punct::RBrace)?;
            // Attributes after the closing brace bind to the type too.
            self.attributes(&mut attributes)?;
            Some(fields)
        } else {
            if tag.is_none() {
                return Err(self.error_here("'{' or a tag name"));
            }
            None
        };
        Ok(RecordSpec {
            kind,
            tag_location: if tag.is_some() {
                tag_location
            } else {
                kw.location
            },
            tag,
            fields,
            attributes,
            location: kw.location,
        })
    }

    fn field_decl(&mut self) -> PResult<FieldDecl> {
        let location = self.loc();
        let specs = self.decl_specs()?;
        let mut declarators = Vec::new();
        if !self.at(Punct::Semicolon) {
            loop {
                let d = if self.at(Punct::Colon) {
                    Declarator::default()
                } else {
                    self.declarator()?
                };
                let width = if self.eat(Punct::Colon) {
                    Some(self.conditional_expr()?)
                } else {
                    None
                };
                declarators.push((d, width));
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
        }
        self.expect_semicolon("at end of declaration list")?;
        Ok(FieldDecl {
            specs,
            declarators,
            location,
        })
    }

    fn enum_spec(&mut self) -> PResult<EnumSpec> {
        let kw = self.bump();
        let mut ignored = Vec::new();
        self.attributes(&mut ignored)?;
        let tag = if self.peek().kind == TokenKind::Identifier {
            let t = self.bump();
            Some(Name(t.sym))
        } else {
            None
        };
        let enumerators = if self.eat(Punct::LBrace) {
            let mut list = Vec::new();
            while !self.at(Punct::RBrace) {
                let t = self.bump();
                if t.kind != TokenKind::Identifier {
                    self.pos -= 1;
                    return Err(self.error_here("enumerator name"));
                }
                self.declare_name(Name(t.sym), false);
                let value = if self.eat(Punct::Assign) {
                    Some(self.conditional_expr()?)
                } else {
                    None
                };
                list.push((Name(t.sym), value, t.location));
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            self.expect(Punct::RBrace)?;
            Some(list)
        } else {
            None
        };
        Ok(EnumSpec {
            tag,
            enumerators,
            location: kw.location,
        })
    }

    fn pointer_qualifiers(&mut self, attrs: &mut Vec<Attribute>) -> PResult<Qualifiers> {
        let mut q = Qualifiers::default();
        loop {
            let kw = self.kw();
            if add_qualifier(&mut q, kw) {
                self.pos += 1;
            } else if kw == Kw::Attribute {
                self.attributes(attrs)?;
            } else {
                break;
            }
        }
        Ok(q)
    }

    /// A declarator, abstract or not (the caller checks for a name).
    fn declarator(&mut self) -> PResult<Declarator> {
        self.enter()?;
        let result = self.declarator_inner();
        self.leave();
        result
    }

    fn declarator_inner(&mut self) -> PResult<Declarator> {
        let mut attributes = Vec::new();
        let mut pointers = Vec::new();
        while self.eat(Punct::Star) {
            pointers.push(Derived::Pointer(self.pointer_qualifiers(&mut attributes)?));
        }
        let mut inner = Declarator::default();
        let t = self.peek();
        if !matches!(self.kw(), Kw::NotIdent | Kw::Attribute) {
            self.pos += 1;
            inner.name = Some((Name(t.sym), t.location));
        } else if self.at(Punct::LParen) && self.is_nested_declarator() {
            let star = self.peek_at(1);
            let star = star.is_punct(Punct::Star).then_some(star.location);
            self.pos += 1;
            inner = self.declarator()?;
            // `(*f)(...)`: OpenCL C has no function pointers (6.9.a).
            if let Some(star) = star {
                if self.at(Punct::RParen) && self.peek_at(1).is_punct(Punct::LParen) {
                    self.diags
                        .error(star, "pointers to functions are not allowed");
                }
            }
            self.expect(Punct::RParen)?;
        }
        let mut suffixes = Vec::new();
        loop {
            if self.eat(Punct::LBracket) {
                let size = if self.at(Punct::RBracket) {
                    None
                } else {
                    Some(self.assignment_expr()?)
                };
                self.expect(Punct::RBracket)?;
                suffixes.push(Derived::Array(size));
            } else if self.at(Punct::LParen) {
                self.pos += 1;
                suffixes.push(self.parameter_list()?);
            } else {
                break;
            }
        }
        self.attributes(&mut attributes)?;
        // Most declarators have one of these lists at most: move it in
        // rather than copy it.
        if inner.derived.is_empty() {
            inner.derived = suffixes;
        } else {
            inner.derived.extend(suffixes);
        }
        if inner.derived.is_empty() {
            pointers.reverse();
            inner.derived = pointers;
        } else {
            inner.derived.extend(pointers.into_iter().rev());
        }
        if inner.attributes.is_empty() {
            inner.attributes = attributes;
        } else {
            inner.attributes.extend(attributes);
        }
        Ok(inner)
    }

    /// After `(` in a declarator: is this `(*p)` (nested) or a parameter list?
    fn is_nested_declarator(&self) -> bool {
        let next = self.peek_at(1);
        next.is_punct(Punct::Star)
            || next.is_punct(Punct::LParen)
            || next.is_punct(Punct::LBracket)
            || (next.kind == TokenKind::Identifier && !self.starts_type(1))
    }

    fn parameter_list(&mut self) -> PResult<Derived> {
        let mut params = Vec::new();
        let mut variadic = false;
        // `(void)` declares no parameters.
        if self.kw() == Kw::Scalar(ScalarWord::Void) && self.peek_at(1).is_punct(Punct::RParen) {
            self.pos += 2;
            return Ok(Derived::Function { params, variadic });
        }
        while !self.at(Punct::RParen) {
            if self.eat(Punct::Ellipsis) {
                variadic = true;
                break;
            }
            let location = self.loc();
            let specs = self.decl_specs()?;
            let declarator = self.declarator()?;
            params.push(ParamDecl {
                specs,
                declarator,
                location,
            });
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RParen)?;
        Ok(Derived::Function { params, variadic })
    }

    fn type_name(&mut self) -> PResult<TypeName> {
        let specs = self.decl_specs()?;
        let declarator = self.declarator()?;
        if let Some((_, loc)) = declarator.name {
            self.diags.error(loc, "unexpected name in a type");
        }
        Ok(TypeName { specs, declarator })
    }

    fn initializer(&mut self) -> PResult<Initializer> {
        if !self.at(Punct::LBrace) {
            return Ok(Initializer::Expr(self.assignment_expr()?));
        }
        self.enter()?;
        let location = self.loc();
        self.pos += 1;
        let mut items = Vec::new();
        while !self.at(Punct::RBrace) {
            let mut designators = Vec::new();
            loop {
                if self.eat(Punct::LBracket) {
                    designators.push(Designator::Index(self.conditional_expr()?));
                    self.expect(Punct::RBracket)?;
                } else if self.at(Punct::Dot) {
                    self.pos += 1;
                    let t = self.bump();
                    if t.kind != TokenKind::Identifier {
                        self.pos -= 1;
                        return Err(self.error_here("a field name"));
                    }
                    designators.push(Designator::Field(Name(t.sym), t.location));
                } else {
                    break;
                }
            }
            if !designators.is_empty() {
                self.expect(Punct::Assign)?;
            }
            items.push((designators, self.initializer()?));
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::RBrace)?;
        self.leave();
        Ok(Initializer::List(items, location))
    }

    // ---- statements ----

    fn block(&mut self) -> PResult<Block> {
        let location = self.loc();
        self.expect(Punct::LBrace)?;
        self.push_scope();
        // Room for a typical block without regrowing.
        let mut items = Vec::with_capacity(8);
        while !self.at(Punct::RBrace) && self.peek().kind != TokenKind::Eof {
            let start = self.pos;
            match self.statement() {
                Ok(s) => items.push(s),
                Err(Reported) => {
                    self.recover();
                    if self.pos == start {
                        self.pos += 1;
                    }
                }
            }
        }
        self.pop_scope();
        self.expect(Punct::RBrace)?;
        Ok(Block { items, location })
    }

    fn statement(&mut self) -> PResult<Stmt> {
        self.enter()?;
        let s = self.statement_inner();
        self.leave();
        s
    }

    fn sub_statement(&mut self) -> PResult<Box<Stmt>> {
        // A sub-statement gets its own scope (C99 6.8.4, 6.8.5).
        self.push_scope();
        let s = self.statement();
        self.pop_scope();
        Ok(Box::new(s?))
    }

    fn statement_inner(&mut self) -> PResult<Stmt> {
        let location = self.loc();
        if self.kw() == Kw::Attribute {
            // Statement attributes (`__attribute__((opencl_unroll_hint(4)))
            // for ...`) come before loops; anything else after attributes
            // is a declaration.
            let start = self.pos;
            let mut attributes = Vec::new();
            self.attributes(&mut attributes)?;
            if matches!(
                self.kw(),
                Kw::For | Kw::While | Kw::Do | Kw::If | Kw::Switch
            ) {
                let inner = self.statement()?;
                return Ok(Stmt {
                    kind: StmtKind::Attributed(attributes, Box::new(inner)),
                    location,
                });
            }
            self.pos = start;
        }
        let t = self.peek();
        let kind = match t.kind {
            TokenKind::Pragma => {
                self.pos += 1;
                StmtKind::Pragma(Name(t.sym))
            }
            TokenKind::Punct(Punct::LBrace) => StmtKind::Compound(self.block()?),
            TokenKind::Punct(Punct::Semicolon) => {
                self.pos += 1;
                StmtKind::Expr(None)
            }
            TokenKind::Identifier => match self.kw() {
                Kw::If => {
                    self.pos += 1;
                    self.expect(Punct::LParen)?;
                    let cond = self.expr()?;
                    self.expect(Punct::RParen)?;
                    let then = self.sub_statement()?;
                    let otherwise = if self.eat_kw(Kw::Else) {
                        Some(self.sub_statement()?)
                    } else {
                        None
                    };
                    StmtKind::If(cond, then, otherwise)
                }
                Kw::While => {
                    self.pos += 1;
                    self.expect(Punct::LParen)?;
                    let cond = self.expr()?;
                    self.expect(Punct::RParen)?;
                    StmtKind::While(cond, self.sub_statement()?)
                }
                Kw::Do => {
                    self.pos += 1;
                    let body = self.sub_statement()?;
                    if !self.eat_kw(Kw::While) {
                        return Err(self.error_here("'while'"));
                    }
                    self.expect(Punct::LParen)?;
                    let cond = self.expr()?;
                    self.expect(Punct::RParen)?;
                    self.expect_semicolon("after do/while statement")?;
                    StmtKind::DoWhile(body, cond)
                }
                Kw::For => {
                    self.pos += 1;
                    self.push_scope();
                    let result = self.for_statement();
                    self.pop_scope();
                    result?
                }
                Kw::Switch => {
                    self.pos += 1;
                    self.expect(Punct::LParen)?;
                    let value = self.expr()?;
                    self.expect(Punct::RParen)?;
                    StmtKind::Switch(value, self.sub_statement()?)
                }
                Kw::Case => {
                    self.pos += 1;
                    let value = self.conditional_expr()?;
                    self.expect(Punct::Colon)?;
                    StmtKind::Case(value, Box::new(self.statement()?))
                }
                Kw::Default if self.peek_at(1).is_punct(Punct::Colon) => {
                    self.pos += 2;
                    StmtKind::Default(Box::new(self.statement()?))
                }
                Kw::Break => {
                    self.pos += 1;
                    self.expect_semicolon("after break statement")?;
                    StmtKind::Break
                }
                Kw::Continue => {
                    self.pos += 1;
                    self.expect_semicolon("after continue statement")?;
                    StmtKind::Continue
                }
                Kw::Return => {
                    self.pos += 1;
                    let value = if self.at(Punct::Semicolon) {
                        None
                    } else {
                        Some(self.expr()?)
                    };
                    self.expect_semicolon("after return statement")?;
                    StmtKind::Return(value)
                }
                Kw::Goto => {
                    self.pos += 1;
                    let label = self.bump();
                    if label.kind != TokenKind::Identifier {
                        self.pos -= 1;
                        return Err(self.error_here("a label"));
                    }
                    self.expect_semicolon("after goto statement")?;
                    StmtKind::Goto(Name(label.sym))
                }
                _ if self.peek_at(1).is_punct(Punct::Colon) && !self.starts_declaration() => {
                    self.pos += 2;
                    StmtKind::Labeled(Name(t.sym), Box::new(self.statement()?))
                }
                _ if self.starts_declaration() => StmtKind::Declaration(self.declaration()?),
                _ => self.expression_statement()?,
            },
            _ => self.expression_statement()?,
        };
        Ok(Stmt { kind, location })
    }

    fn expression_statement(&mut self) -> PResult<StmtKind> {
        let e = self.expr()?;
        self.expect_semicolon("after expression")?;
        Ok(StmtKind::Expr(Some(e)))
    }

    fn declaration(&mut self) -> PResult<Declaration> {
        let specs = self.decl_specs()?;
        if self.eat(Punct::Semicolon) {
            return Ok(Declaration {
                location: specs.location,
                specs,
                declarators: Vec::new(),
            });
        }
        let first = self.declarator()?;
        self.rest_of_declaration(specs, first)
    }

    fn for_statement(&mut self) -> PResult<StmtKind> {
        self.expect(Punct::LParen)?;
        let init_loc = self.loc();
        let init = if self.eat(Punct::Semicolon) {
            None
        } else if self.starts_declaration() {
            Some(Box::new(Stmt {
                kind: StmtKind::Declaration(self.declaration()?),
                location: init_loc,
            }))
        } else {
            Some(Box::new(Stmt {
                kind: self.expression_statement()?,
                location: init_loc,
            }))
        };
        let cond = if self.at(Punct::Semicolon) {
            None
        } else {
            Some(self.expr()?)
        };
        self.expect_semicolon("in 'for' statement specifier")?;
        let step = if self.at(Punct::RParen) {
            None
        } else {
            Some(self.expr()?)
        };
        self.expect(Punct::RParen)?;
        let body = self.sub_statement()?;
        Ok(StmtKind::For {
            init,
            cond,
            step,
            body,
        })
    }

    // ---- expressions ----

    fn expr(&mut self) -> PResult<Expr> {
        let mut e = self.assignment_expr()?;
        while self.at(Punct::Comma) {
            let location = self.loc();
            self.pos += 1;
            let rhs = self.assignment_expr()?;
            e = Expr {
                kind: ExprKind::Comma(Box::new((e, rhs))),
                location,
            };
        }
        Ok(e)
    }

    fn assignment_expr(&mut self) -> PResult<Expr> {
        if let Some(leaf) = self.lone_operand() {
            return Ok(leaf);
        }
        self.enter()?;
        let result = self.assignment_inner();
        self.leave();
        result
    }

    /// A name or number that is a whole expression, ended by `,`, `)`,
    /// `]` or `;`: most call arguments (macro arguments are parenthesised)
    /// and subscripts. Taken here, it skips the descent through every
    /// precedence level to the same leaf. Not at the nesting limit, where
    /// the descent would report the nesting instead.
    #[inline]
    fn lone_operand(&mut self) -> Option<Expr> {
        let ends = matches!(
            self.peek_at(1).kind,
            TokenKind::Punct(Punct::Comma | Punct::RParen | Punct::RBracket | Punct::Semicolon)
        );
        if !ends || self.depth >= MAX_DEPTH {
            return None;
        }
        let t = self.peek();
        let kind = match t.kind {
            TokenKind::Identifier if self.kw() == Kw::Name => ExprKind::Ident(Name(t.sym)),
            TokenKind::IntLiteral => ExprKind::IntLiteral(Name(t.sym)),
            TokenKind::FloatLiteral => ExprKind::FloatLiteral(Name(t.sym)),
            _ => return None,
        };
        self.pos += 1;
        Some(Expr {
            kind,
            location: t.location,
        })
    }

    fn assignment_inner(&mut self) -> PResult<Expr> {
        let lhs = self.conditional_expr()?;
        let op = match self.peek().kind {
            TokenKind::Punct(p) => match p {
                Punct::Assign => Some(None),
                Punct::StarAssign => Some(Some(BinaryOp::Mul)),
                Punct::SlashAssign => Some(Some(BinaryOp::Div)),
                Punct::PercentAssign => Some(Some(BinaryOp::Rem)),
                Punct::PlusAssign => Some(Some(BinaryOp::Add)),
                Punct::MinusAssign => Some(Some(BinaryOp::Sub)),
                Punct::ShlAssign => Some(Some(BinaryOp::Shl)),
                Punct::ShrAssign => Some(Some(BinaryOp::Shr)),
                Punct::AmpAssign => Some(Some(BinaryOp::BitAnd)),
                Punct::CaretAssign => Some(Some(BinaryOp::BitXor)),
                Punct::PipeAssign => Some(Some(BinaryOp::BitOr)),
                _ => None,
            },
            _ => None,
        };
        let Some(op) = op else { return Ok(lhs) };
        let location = self.loc();
        self.pos += 1;
        let rhs = self.assignment_expr()?;
        Ok(Expr {
            kind: ExprKind::Assign(op, Box::new((lhs, rhs))),
            location,
        })
    }

    #[inline]
    fn conditional_expr(&mut self) -> PResult<Expr> {
        let cond = self.binary_expr(0)?;
        if !self.at(Punct::Question) {
            return Ok(cond);
        }
        self.conditional_tail(cond)
    }

    fn conditional_tail(&mut self, cond: Expr) -> PResult<Expr> {
        let location = self.loc();
        self.pos += 1;
        self.enter()?;
        let then = self.expr();
        self.leave();
        let then = then?;
        self.expect(Punct::Colon)?;
        self.enter()?;
        let otherwise = self.conditional_expr();
        self.leave();
        Ok(Expr {
            kind: ExprKind::Conditional(Box::new((cond, then, otherwise?))),
            location,
        })
    }

    /// Precedence climbing over C's binary operators.
    fn binary_expr(&mut self, min_prec: u8) -> PResult<Expr> {
        let mut lhs = self.cast_expr()?;
        while let Some((op, prec)) = self.binary_op() {
            if prec < min_prec {
                break;
            }
            let location = self.loc();
            self.pos += 1;
            self.enter()?;
            let rhs = self.binary_expr(prec + 1);
            self.leave();
            lhs = Expr {
                kind: ExprKind::Binary(op, Box::new((lhs, rhs?))),
                location,
            };
        }
        Ok(lhs)
    }

    fn binary_op(&self) -> Option<(BinaryOp, u8)> {
        let TokenKind::Punct(p) = self.peek().kind else {
            return None;
        };
        Some(match p {
            Punct::PipePipe => (BinaryOp::LogicalOr, 1),
            Punct::AmpAmp => (BinaryOp::LogicalAnd, 2),
            Punct::Pipe => (BinaryOp::BitOr, 3),
            Punct::Caret => (BinaryOp::BitXor, 4),
            Punct::Amp => (BinaryOp::BitAnd, 5),
            Punct::EqEq => (BinaryOp::Eq, 6),
            Punct::NotEq => (BinaryOp::Ne, 6),
            Punct::Lt => (BinaryOp::Lt, 7),
            Punct::Gt => (BinaryOp::Gt, 7),
            Punct::Le => (BinaryOp::Le, 7),
            Punct::Ge => (BinaryOp::Ge, 7),
            Punct::Shl => (BinaryOp::Shl, 8),
            Punct::Shr => (BinaryOp::Shr, 8),
            Punct::Plus => (BinaryOp::Add, 9),
            Punct::Minus => (BinaryOp::Sub, 9),
            Punct::Star => (BinaryOp::Mul, 10),
            Punct::Slash => (BinaryOp::Div, 10),
            Punct::Percent => (BinaryOp::Rem, 10),
            _ => return None,
        })
    }

    /// The operand of a binary operator. Most are a name or a number,
    /// perhaps with postfix operators: those take the short way here.
    #[inline]
    fn cast_expr(&mut self) -> PResult<Expr> {
        let t = self.peek();
        let kind = match t.kind {
            TokenKind::Identifier if self.kw() == Kw::Name => ExprKind::Ident(Name(t.sym)),
            TokenKind::IntLiteral => ExprKind::IntLiteral(Name(t.sym)),
            TokenKind::FloatLiteral => ExprKind::FloatLiteral(Name(t.sym)),
            _ => return self.general_cast_expr(),
        };
        self.pos += 1;
        self.postfix_tail(Expr {
            kind,
            location: t.location,
        })
    }

    // Out of line, so that the short path above stays small.
    #[inline(never)]
    fn general_cast_expr(&mut self) -> PResult<Expr> {
        if self.at(Punct::LParen) && self.starts_type(1) {
            let location = self.loc();
            self.pos += 1;
            let ty = Box::new(self.type_name()?);
            self.expect(Punct::RParen)?;
            if self.at(Punct::LBrace) {
                let init = Box::new(self.initializer()?);
                let e = Expr {
                    kind: ExprKind::CompoundLiteral(ty, init),
                    location,
                };
                return self.postfix_tail(e);
            }
            if self.at(Punct::LParen) && types::is_vector_type_name(&ty, &self.spellings) {
                // `(float4)(a, b)`: a vector literal, not a cast of a comma
                // expression (OpenCL C 6.1.6).
                let parts_location = self.loc();
                self.pos += 1;
                let mut parts = Vec::new();
                loop {
                    parts.push(self.assignment_expr()?);
                    if !self.eat(Punct::Comma) {
                        break;
                    }
                }
                self.expect(Punct::RParen)?;
                let e = Expr {
                    kind: ExprKind::VectorLiteral(ty, parts, parts_location),
                    location,
                };
                return self.postfix_tail(e);
            }
            self.enter()?;
            let operand = self.cast_expr();
            self.leave();
            return Ok(Expr {
                kind: ExprKind::Cast(ty, Box::new(operand?)),
                location,
            });
        }
        self.unary_expr()
    }

    fn unary_expr(&mut self) -> PResult<Expr> {
        let location = self.loc();
        let t = self.peek();
        let op = match t.kind {
            TokenKind::Punct(Punct::PlusPlus) => Some(UnaryOp::PreInc),
            TokenKind::Punct(Punct::MinusMinus) => Some(UnaryOp::PreDec),
            TokenKind::Punct(Punct::Plus) => Some(UnaryOp::Plus),
            TokenKind::Punct(Punct::Minus) => Some(UnaryOp::Minus),
            TokenKind::Punct(Punct::Bang) => Some(UnaryOp::Not),
            TokenKind::Punct(Punct::Tilde) => Some(UnaryOp::BitNot),
            TokenKind::Punct(Punct::Star) => Some(UnaryOp::Deref),
            TokenKind::Punct(Punct::Amp) => Some(UnaryOp::AddressOf),
            _ => None,
        };
        if let Some(op) = op {
            self.pos += 1;
            self.enter()?;
            let operand = if matches!(op, UnaryOp::PreInc | UnaryOp::PreDec) {
                self.unary_expr()
            } else {
                self.cast_expr()
            };
            self.leave();
            return Ok(Expr {
                kind: ExprKind::Unary(op, Box::new(operand?)),
                location,
            });
        }
        let kw = self.kw();
        if kw != Kw::Name {
            let type_op = match kw {
                Kw::Sizeof => Some((
                    ExprKind::SizeofType as fn(Box<TypeName>) -> ExprKind,
                    ExprKind::SizeofExpr as fn(Box<Expr>) -> ExprKind,
                )),
                Kw::VecStep => Some((
                    ExprKind::VecStepType as fn(Box<TypeName>) -> ExprKind,
                    ExprKind::VecStepExpr as fn(Box<Expr>) -> ExprKind,
                )),
                _ => None,
            };
            if let Some((of_type, of_expr)) = type_op {
                self.pos += 1;
                if self.at(Punct::LParen) && self.starts_type(1) {
                    self.pos += 1;
                    let ty = self.type_name()?;
                    self.expect(Punct::RParen)?;
                    return Ok(Expr {
                        kind: of_type(Box::new(ty)),
                        location,
                    });
                }
                self.enter()?;
                let operand = self.unary_expr();
                self.leave();
                return Ok(Expr {
                    kind: of_expr(Box::new(operand?)),
                    location,
                });
            }
            if kw == Kw::Alignof {
                self.pos += 1;
                self.expect(Punct::LParen)?;
                let ty = self.type_name()?;
                self.expect(Punct::RParen)?;
                return Ok(Expr {
                    kind: ExprKind::AlignofType(Box::new(ty)),
                    location,
                });
            }
        }
        let primary = self.primary_expr()?;
        self.postfix_tail(primary)
    }

    fn primary_expr(&mut self) -> PResult<Expr> {
        let t = self.peek();
        let location = t.location;
        let kind = match t.kind {
            TokenKind::Identifier => ExprKind::Ident(Name(t.sym)),
            TokenKind::IntLiteral => ExprKind::IntLiteral(Name(t.sym)),
            TokenKind::FloatLiteral => ExprKind::FloatLiteral(Name(t.sym)),
            TokenKind::CharLiteral => ExprKind::CharLiteral(Name(t.sym)),
            TokenKind::StringLiteral => {
                // Adjacent string literals concatenate.
                let mut text = String::from(&**self.text(t));
                while self.peek_at(1).kind == TokenKind::StringLiteral {
                    self.pos += 1;
                    text.pop();
                    text.push_str(&self.text(self.peek())[1..]);
                }
                ExprKind::StringLiteral(text)
            }
            TokenKind::Punct(Punct::LParen) => {
                self.pos += 1;
                self.enter()?;
                let inner = self.expr();
                self.leave();
                let inner = inner?;
                self.expect(Punct::RParen)?;
                return Ok(inner);
            }
            _ => return Err(self.error_here("expression")),
        };
        self.pos += 1;
        Ok(Expr { kind, location })
    }

    #[inline]
    fn postfix_tail(&mut self, e: Expr) -> PResult<Expr> {
        match self.peek().kind {
            TokenKind::Punct(
                Punct::LBracket
                | Punct::LParen
                | Punct::Dot
                | Punct::Arrow
                | Punct::PlusPlus
                | Punct::MinusMinus,
            ) => self.postfix_ops(e),
            _ => Ok(e),
        }
    }

    fn postfix_ops(&mut self, mut e: Expr) -> PResult<Expr> {
        loop {
            let location = self.loc();
            let kind = if self.eat(Punct::LBracket) {
                let index = self.expr()?;
                self.expect(Punct::RBracket)?;
                ExprKind::Index(Box::new((e, index)))
            } else if self.eat(Punct::LParen) {
                let mut args = Vec::new();
                while !self.at(Punct::RParen) {
                    args.push(self.assignment_expr()?);
                    if !self.eat(Punct::Comma) {
                        break;
                    }
                }
                let rparen = self.loc();
                self.expect(Punct::RParen)?;
                ExprKind::Call(Box::new(e), args, rparen)
            } else if self.at(Punct::Dot) || self.at(Punct::Arrow) {
                let arrow = self.at(Punct::Arrow);
                self.pos += 1;
                let name = self.bump();
                // Swizzles like `.s01` lex as identifiers; `.0` does not exist.
                if name.kind != TokenKind::Identifier {
                    self.pos -= 1;
                    return Err(self.error_here("a member name"));
                }
                ExprKind::Member {
                    base: Box::new(e),
                    name: Name(name.sym),
                    name_location: name.location,
                    arrow,
                }
            } else if self.eat(Punct::PlusPlus) {
                ExprKind::Unary(UnaryOp::PostInc, Box::new(e))
            } else if self.eat(Punct::MinusMinus) {
                ExprKind::Unary(UnaryOp::PostDec, Box::new(e))
            } else {
                return Ok(e);
            };
            e = Expr { kind, location };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::FileId;

    fn parse_source(src: &str) -> (TranslationUnit, Diagnostics) {
        let mut tokens: Vec<Token> = crate::lexer::lex(src, FileId(0))
            .tokens
            .into_iter()
            .map(|t| t.token)
            .collect();
        tokens.push(Token {
            kind: TokenKind::Eof,
            text: Rc::from(""),
            location: Location::new(FileId(0), src.len()),
            leading_space: false,
        });
        let mut diags = Diagnostics::default();
        let (unit, _) = parse(&tokens, &mut diags);
        (unit, diags)
    }

    /// Whether each statement of the body of function `index` is a
    /// declaration.
    fn declarations(unit: &TranslationUnit, index: usize) -> Vec<bool> {
        let Some(ExternalDecl::Function(f)) = unit.items.get(index) else {
            panic!("item {index} is not a function");
        };
        f.body
            .items
            .iter()
            .map(|s| matches!(s.kind, StmtKind::Declaration(_)))
            .collect()
    }

    #[test]
    fn keyword_classes() {
        let keywords = [
            ("typedef", Kw::Storage(StorageClass::Typedef)),
            ("extern", Kw::Storage(StorageClass::Extern)),
            ("static", Kw::Storage(StorageClass::Static)),
            ("auto", Kw::Storage(StorageClass::Auto)),
            ("register", Kw::Storage(StorageClass::Register)),
            ("const", Kw::Const),
            ("__const", Kw::Const),
            ("volatile", Kw::Volatile),
            ("__volatile", Kw::Volatile),
            ("restrict", Kw::Restrict),
            ("__restrict", Kw::Restrict),
            ("__global", Kw::AddressSpace(AddressSpace::Global)),
            ("global", Kw::AddressSpace(AddressSpace::Global)),
            ("__local", Kw::AddressSpace(AddressSpace::Local)),
            ("local", Kw::AddressSpace(AddressSpace::Local)),
            ("__constant", Kw::AddressSpace(AddressSpace::Constant)),
            ("constant", Kw::AddressSpace(AddressSpace::Constant)),
            ("__private", Kw::AddressSpace(AddressSpace::Private)),
            ("private", Kw::AddressSpace(AddressSpace::Private)),
            ("__generic", Kw::AddressSpace(AddressSpace::Generic)),
            ("generic", Kw::AddressSpace(AddressSpace::Generic)),
            ("__kernel", Kw::Kernel),
            ("kernel", Kw::Kernel),
            ("inline", Kw::Inline),
            ("__inline", Kw::Inline),
            ("__inline__", Kw::GnuInline),
            ("__read_only", Kw::Access),
            ("read_only", Kw::Access),
            ("__write_only", Kw::Access),
            ("write_only", Kw::Access),
            ("__read_write", Kw::Access),
            ("read_write", Kw::Access),
            ("__attribute__", Kw::Attribute),
            ("__attribute", Kw::Attribute),
            ("void", Kw::Scalar(ScalarWord::Void)),
            ("bool", Kw::Scalar(ScalarWord::Bool)),
            ("_Bool", Kw::Scalar(ScalarWord::Bool)),
            ("char", Kw::Scalar(ScalarWord::Char)),
            ("short", Kw::Scalar(ScalarWord::Short)),
            ("int", Kw::Scalar(ScalarWord::Int)),
            ("long", Kw::Scalar(ScalarWord::Long)),
            ("signed", Kw::Scalar(ScalarWord::Signed)),
            ("__signed", Kw::Scalar(ScalarWord::Signed)),
            ("__signed__", Kw::Scalar(ScalarWord::Signed)),
            ("unsigned", Kw::Scalar(ScalarWord::Unsigned)),
            ("half", Kw::Scalar(ScalarWord::Half)),
            ("float", Kw::Scalar(ScalarWord::Float)),
            ("double", Kw::Scalar(ScalarWord::Double)),
            ("struct", Kw::Struct),
            ("union", Kw::Union),
            ("enum", Kw::Enum),
            ("if", Kw::If),
            ("else", Kw::Else),
            ("while", Kw::While),
            ("do", Kw::Do),
            ("for", Kw::For),
            ("switch", Kw::Switch),
            ("case", Kw::Case),
            ("default", Kw::Default),
            ("break", Kw::Break),
            ("continue", Kw::Continue),
            ("return", Kw::Return),
            ("goto", Kw::Goto),
            ("sizeof", Kw::Sizeof),
            ("vec_step", Kw::VecStep),
            ("_Alignof", Kw::Alignof),
            ("__alignof__", Kw::Alignof),
            ("__alignof", Kw::Alignof),
        ];
        for (word, kw) in keywords {
            assert_eq!(keyword(word), kw, "{word}");
        }
        assert_eq!(keyword("__attributes"), Kw::Name);
        assert_eq!(keyword("float4"), Kw::BuiltinType);
        assert_eq!(keyword("size_t"), Kw::BuiltinType);
        assert_eq!(keyword("gid"), Kw::Name);
    }

    #[test]
    fn typedef_names_follow_scopes() {
        // `T * x;` declares a pointer where T is a typedef and multiplies
        // where an inner declaration hides it; leaving the scope brings the
        // typedef back, and an inner typedef ends with its block.
        let (unit, diags) = parse_source(
            "typedef int T;\n\
             void f(void) { T * a; { int T; T * b; } T * c; }\n\
             void g(void) { int T; T * d; { typedef float T; T * e; } T * h; }\n\
             void k(void) { T * m; }\n",
        );
        assert!(!diags.has_errors());
        assert_eq!(declarations(&unit, 1), [true, false, true]);
        assert_eq!(declarations(&unit, 2), [true, false, false, false]);
        let Some(ExternalDecl::Function(g)) = unit.items.get(2) else {
            panic!("g");
        };
        let StmtKind::Compound(inner) = &g.body.items[2].kind else {
            panic!("block");
        };
        let inner: Vec<bool> = inner
            .items
            .iter()
            .map(|s| matches!(s.kind, StmtKind::Declaration(_)))
            .collect();
        assert_eq!(inner, [true, true]);
        assert_eq!(declarations(&unit, 3), [true]);
    }
}
