//! The parser: preprocessed tokens to an [`ast::TranslationUnit`].
//!
//! A hand-written recursive-descent parser for C99 with the OpenCL C
//! additions (address-space qualifiers, `__kernel`, vector literals,
//! `vec_step`, attributes anywhere C allows them). Typedef names are tracked
//! in scopes because C cannot be parsed without knowing them. On an error it
//! reports, skips to a likely statement or declaration boundary and goes on,
//! so one build logs every error.

use crate::ast::*;
use crate::diagnostic::{Diagnostics, Location};
use crate::lexer::FxBuildHasher;
use crate::token::{Punct, Token, TokenKind};
use crate::types;
use std::collections::HashMap;
use std::rc::Rc;

/// Parses a whole translation unit; errors go to `diags`.
pub fn parse(tokens: &[Token], diags: &mut Diagnostics) -> TranslationUnit {
    let mut parser = Parser {
        tokens,
        pos: 0,
        diags,
        names: HashMap::default(),
        shadowed: Vec::new(),
        scope_starts: Vec::new(),
        depth: 0,
        assumed_semicolon: false,
    };
    parser.translation_unit()
}

/// Nesting deeper than this is reported instead of overflowing the stack.
const MAX_DEPTH: u32 = 256;

struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
    diags: &'a mut Diagnostics,
    /// Names declared in each scope, innermost last, and whether each is a
    /// typedef: an ordinary declaration in an inner scope hides a typedef.
    ///
    /// One map for all scopes, so a lookup is one probe: `names` holds the
    /// innermost declaration of each name, `shadowed` what each declaration
    /// replaced (to restore at the end of its scope), and `scope_starts`
    /// where each open scope's declarations begin in `shadowed`.
    names: HashMap<Rc<str>, bool, FxBuildHasher>,
    shadowed: Vec<(Rc<str>, Option<bool>)>,
    scope_starts: Vec<usize>,
    depth: u32,
    /// A `;` that was missing after a struct body and has been reported:
    /// the next `;` the parser looks for is taken as found.
    assumed_semicolon: bool,
}

/// The error has been reported; the caller recovers.
struct Reported;

type PResult<T> = Result<T, Reported>;

/// Sets one qualifier; the table maps each spelling to its setter.
type QualifierSetter = fn(&mut Qualifiers);

const KEYWORD_QUALIFIERS: &[(&str, QualifierSetter)] = &[
    ("const", |q| q.is_const = true),
    ("__const", |q| q.is_const = true),
    ("volatile", |q| q.is_volatile = true),
    ("__volatile", |q| q.is_volatile = true),
    ("restrict", |q| q.is_restrict = true),
    ("__restrict", |q| q.is_restrict = true),
    ("__global", |q| q.address_space = Some(AddressSpace::Global)),
    ("global", |q| q.address_space = Some(AddressSpace::Global)),
    ("__local", |q| q.address_space = Some(AddressSpace::Local)),
    ("local", |q| q.address_space = Some(AddressSpace::Local)),
    ("__constant", |q| {
        q.address_space = Some(AddressSpace::Constant)
    }),
    ("constant", |q| {
        q.address_space = Some(AddressSpace::Constant)
    }),
    ("__private", |q| {
        q.address_space = Some(AddressSpace::Private)
    }),
    ("private", |q| q.address_space = Some(AddressSpace::Private)),
    ("__generic", |q| {
        q.address_space = Some(AddressSpace::Generic)
    }),
    ("generic", |q| q.address_space = Some(AddressSpace::Generic)),
];

fn qualifier_setter(word: &str) -> Option<QualifierSetter> {
    KEYWORD_QUALIFIERS
        .iter()
        .find(|(w, _)| *w == word)
        .map(|&(_, f)| f)
}

fn scalar_word(words: &mut ScalarWords, word: &str) -> bool {
    match word {
        "void" => words.void = true,
        "bool" | "_Bool" => words.bool_ = true,
        "char" => words.char_ = true,
        "short" => words.short = true,
        "int" => words.int = true,
        "long" => words.long += 1,
        "signed" | "__signed" | "__signed__" => words.signed = true,
        "unsigned" => words.unsigned = true,
        "half" => words.half = true,
        "float" => words.float = true,
        "double" => words.double = true,
        _ => return false,
    }
    true
}

fn is_scalar_keyword(word: &str) -> bool {
    scalar_word(&mut ScalarWords::default(), word)
}

/// The GNU attribute keyword (`__attribute__` or `__attribute`). Exact
/// spellings only: an identifier that merely starts like one (`__attributes`)
/// is an ordinary name, and treating it as an attribute would make the
/// specifier loops spin without consuming it.
fn is_attribute_keyword(word: &str) -> bool {
    matches!(word, "__attribute__" | "__attribute")
}

/// Access qualifiers for images and pipes; kept for later, ignored now.
fn is_access_qualifier(word: &str) -> bool {
    matches!(
        word,
        "__read_only" | "read_only" | "__write_only" | "write_only" | "__read_write" | "read_write"
    )
}

impl<'a> Parser<'a> {
    // ---- token helpers ----

    fn peek(&self) -> &'a Token {
        // The preprocessor always ends the stream with Eof.
        &self.tokens[self.pos.min(self.tokens.len() - 1)]
    }

    fn peek_at(&self, n: usize) -> &'a Token {
        &self.tokens[(self.pos + n).min(self.tokens.len() - 1)]
    }

    fn bump(&mut self) -> &'a Token {
        let t = self.peek();
        if t.kind != TokenKind::Eof {
            self.pos += 1;
        }
        t
    }

    fn at(&self, p: Punct) -> bool {
        self.peek().is_punct(p)
    }

    fn at_ident(&self, name: &str) -> bool {
        self.peek().is_ident(name)
    }

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

    fn eat_ident(&mut self, name: &str) -> bool {
        if self.at_ident(name) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn loc(&self) -> Location {
        self.peek().location
    }

    fn error_here(&mut self, what: &str) -> Reported {
        let t = self.peek();
        self.diags.error(t.location, format!("expected {what}"));
        Reported
    }

    fn expect(&mut self, p: Punct) -> PResult<()> {
        if self.eat(p) {
            return Ok(());
        }
        Err(self.error_here(&format!("'{}'", p.spelling())))
    }

    /// Just after the previous token: where clang reports a missing `;`,
    /// since the next token is often on another line.
    fn after_previous(&self) -> Location {
        match self.pos.checked_sub(1).and_then(|i| self.tokens.get(i)) {
            Some(prev) => {
                let mut location = prev.location;
                location.offset += prev.text.len() as u32;
                location
            }
            None => self.loc(),
        }
    }

    /// `;` ending a construct: "expected ';' after expression" and so on.
    fn expect_semicolon(&mut self, context: &str) -> PResult<()> {
        if self.eat(Punct::Semicolon) {
            return Ok(());
        }
        let location = self.after_previous();
        self.diags
            .error(location, format!("expected ';' {context}"));
        Err(Reported)
    }

    fn enter(&mut self) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.diags.error(self.loc(), "nesting too deep");
            return Err(Reported);
        }
        Ok(())
    }

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

    fn is_typedef_name(&self, name: &str) -> bool {
        self.names.get(name).copied().unwrap_or(false)
    }

    fn declare_name(&mut self, name: &Rc<str>, is_typedef: bool) {
        let previous = self.names.insert(name.clone(), is_typedef);
        // At file scope nothing is ever restored.
        if !self.scope_starts.is_empty() {
            self.shadowed.push((name.clone(), previous));
        }
    }

    fn push_scope(&mut self) {
        self.scope_starts.push(self.shadowed.len());
    }

    fn pop_scope(&mut self) {
        let Some(start) = self.scope_starts.pop() else {
            return;
        };
        while self.shadowed.len() > start {
            let Some((name, previous)) = self.shadowed.pop() else {
                break;
            };
            match previous {
                Some(was_typedef) => {
                    self.names.insert(name, was_typedef);
                }
                None => {
                    self.names.remove(&name);
                }
            }
        }
    }

    /// Does the token at `n` start a type name (in a cast or sizeof)?
    fn starts_type(&self, n: usize) -> bool {
        let t = self.peek_at(n);
        if t.kind != TokenKind::Identifier {
            return false;
        }
        let w = &*t.text;
        is_scalar_keyword(w)
            || qualifier_setter(w).is_some()
            || matches!(w, "struct" | "union" | "enum")
            || is_attribute_keyword(w)
            || is_access_qualifier(w)
            || types::is_builtin_type_name(w)
            || self.is_typedef_name(w)
    }

    /// Does the next token begin a declaration that cannot continue the
    /// current one (after a struct body, a missing `;`)?
    fn starts_new_declaration(&self) -> bool {
        let t = self.peek();
        t.kind == TokenKind::Identifier
            && (matches!(
                &*t.text,
                "typedef"
                    | "__kernel"
                    | "kernel"
                    | "struct"
                    | "union"
                    | "enum"
                    | "extern"
                    | "static"
            ) || is_scalar_keyword(&t.text)
                || types::is_builtin_type_name(&t.text))
    }

    fn starts_declaration(&self) -> bool {
        let t = self.peek();
        if t.kind != TokenKind::Identifier {
            return false;
        }
        let w = &*t.text;
        if matches!(
            w,
            "typedef"
                | "extern"
                | "static"
                | "auto"
                | "register"
                | "inline"
                | "__inline"
                | "__kernel"
                | "kernel"
        ) {
            return true;
        }
        // `T * x` with T a typedef is a declaration; `x * y` is not. Two
        // names in a row can only be a declaration with an unknown type.
        self.starts_type(0) || self.peek_at(1).kind == TokenKind::Identifier
    }

    // ---- top level ----

    fn translation_unit(&mut self) -> TranslationUnit {
        let mut unit = TranslationUnit::default();
        while self.peek().kind != TokenKind::Eof {
            if self.peek().kind == TokenKind::Pragma {
                self.pos += 1;
                continue;
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
                Ok(item) => unit.items.push(item),
                Err(Reported) => {
                    self.recover();
                    if self.pos == start {
                        self.pos += 1;
                    }
                }
            }
        }
        unit
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
                self.declare_name(&name.clone(), false);
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
                    self.declare_name(name, false);
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
                self.declare_name(&name.clone(), is_typedef);
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
        while self.peek().kind == TokenKind::Identifier && is_attribute_keyword(&self.peek().text) {
            self.pos += 1;
            self.expect(Punct::LParen)?;
            self.expect(Punct::LParen)?;
            while !self.at(Punct::RParen) {
                let t = self.bump();
                if t.kind != TokenKind::Identifier {
                    self.pos -= 1;
                    return Err(self.error_here("attribute name"));
                }
                let name: Name = t.text.trim_matches('_').into();
                let mut args = Vec::new();
                if self.eat(Punct::LParen) {
                    while !self.at(Punct::RParen) {
                        args.push(Rc::new(self.assignment_expr()?));
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
            if t.kind != TokenKind::Identifier {
                break;
            }
            let w = &*t.text;
            let storage = match w {
                "typedef" => Some(StorageClass::Typedef),
                "extern" => Some(StorageClass::Extern),
                "static" => Some(StorageClass::Static),
                "auto" => Some(StorageClass::Auto),
                "register" => Some(StorageClass::Register),
                _ => None,
            };
            if let Some(s) = storage {
                if specs.storage.is_some() {
                    self.diags
                        .error(t.location, "cannot combine with previous storage class");
                }
                specs.storage = Some(s);
                self.pos += 1;
            } else if let Some(set) = qualifier_setter(w) {
                let before = specs.qualifiers.address_space;
                set(&mut specs.qualifiers);
                if before.is_some() && before != specs.qualifiers.address_space {
                    self.diags
                        .error(t.location, "multiple address spaces specified for type");
                }
                self.pos += 1;
            } else if matches!(w, "__kernel" | "kernel") {
                specs.is_kernel = true;
                self.pos += 1;
            } else if matches!(w, "inline" | "__inline" | "__inline__") {
                specs.is_inline = true;
                self.pos += 1;
            } else if is_access_qualifier(w) {
                self.pos += 1;
            } else if is_attribute_keyword(w) {
                self.attributes(&mut specs.attributes)?;
            } else if scalar_word(&mut words, w) {
                if !has_words {
                    specs.type_location = t.location;
                }
                has_words = true;
                self.pos += 1;
            } else if matches!(w, "struct" | "union") && matches!(specs.ty, TypeSpec::None) {
                specs.type_location = t.location;
                let record = self.record_spec()?;
                let has_body = record.fields.is_some();
                specs.ty = TypeSpec::Record(Rc::new(record));
                if has_body && self.starts_new_declaration() {
                    // `struct S { ... }` then another declaration: the
                    // `;` is missing. Report it and carry on as if found.
                    let location = self.after_previous();
                    let keyword = if w == "union" { "union" } else { "struct" };
                    self.diags
                        .error(location, format!("expected ';' after {keyword}"));
                    self.assumed_semicolon = true;
                    break;
                }
            } else if w == "enum" && matches!(specs.ty, TypeSpec::None) {
                specs.type_location = t.location;
                specs.ty = TypeSpec::Enum(Rc::new(self.enum_spec()?));
            } else if !has_words && matches!(specs.ty, TypeSpec::None) {
                specs.type_location = t.location;
                if types::is_builtin_type_name(w) {
                    specs.ty = TypeSpec::Builtin(t.text.clone());
                    self.pos += 1;
                } else if self.is_typedef_name(w) {
                    specs.ty = TypeSpec::Typedef(t.text.clone());
                    self.pos += 1;
                } else if self.peek_at(1).kind == TokenKind::Identifier
                    || self.peek_at(1).is_punct(Punct::Star)
                {
                    // An unknown name where a type must be (`flaot *p`,
                    // `float5 v`): the checker reports the unknown type.
                    specs.ty = TypeSpec::Typedef(t.text.clone());
                    self.pos += 1;
                } else {
                    break;
                }
            } else {
                break;
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
        let kw = self.bump();
        let kind = if &*kw.text == "struct" {
            RecordKind::Struct
        } else {
            RecordKind::Union
        };
        let mut attributes = Vec::new();
        self.attributes(&mut attributes)?;
        let tag_location = self.loc();
        let tag = if self.peek().kind == TokenKind::Identifier
            && !is_attribute_keyword(&self.peek().text)
        {
            Some(self.bump().text.clone())
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
            Some(self.bump().text.clone())
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
                self.declare_name(&t.text, false);
                let value = if self.eat(Punct::Assign) {
                    Some(self.conditional_expr()?)
                } else {
                    None
                };
                list.push((t.text.clone(), value, t.location));
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
            let t = self.peek();
            if t.kind != TokenKind::Identifier {
                break;
            }
            if let Some(set) = qualifier_setter(&t.text) {
                set(&mut q);
                self.pos += 1;
            } else if is_attribute_keyword(&t.text) {
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
        if t.kind == TokenKind::Identifier && !is_attribute_keyword(&t.text) {
            self.pos += 1;
            inner.name = Some((t.text.clone(), t.location));
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
        inner.derived.extend(suffixes);
        inner.derived.extend(pointers.into_iter().rev());
        inner.attributes.extend(attributes);
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
        if self.at_ident("void") && self.peek_at(1).is_punct(Punct::RParen) {
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
                    designators.push(Designator::Field(t.text.clone(), t.location));
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
        let mut items = Vec::new();
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
        if is_attribute_keyword(&self.peek().text) && self.peek().kind == TokenKind::Identifier {
            // Statement attributes (`__attribute__((opencl_unroll_hint(4)))
            // for ...`) come before loops; anything else after attributes
            // is a declaration.
            let start = self.pos;
            let mut attributes = Vec::new();
            self.attributes(&mut attributes)?;
            let next = self.peek();
            if next.kind == TokenKind::Identifier
                && matches!(&*next.text, "for" | "while" | "do" | "if" | "switch")
            {
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
                StmtKind::Pragma(t.text.clone())
            }
            TokenKind::Punct(Punct::LBrace) => StmtKind::Compound(self.block()?),
            TokenKind::Punct(Punct::Semicolon) => {
                self.pos += 1;
                StmtKind::Expr(None)
            }
            TokenKind::Identifier => match &*t.text {
                "if" => {
                    self.pos += 1;
                    self.expect(Punct::LParen)?;
                    let cond = self.expr()?;
                    self.expect(Punct::RParen)?;
                    let then = self.sub_statement()?;
                    let otherwise = if self.eat_ident("else") {
                        Some(self.sub_statement()?)
                    } else {
                        None
                    };
                    StmtKind::If(cond, then, otherwise)
                }
                "while" => {
                    self.pos += 1;
                    self.expect(Punct::LParen)?;
                    let cond = self.expr()?;
                    self.expect(Punct::RParen)?;
                    StmtKind::While(cond, self.sub_statement()?)
                }
                "do" => {
                    self.pos += 1;
                    let body = self.sub_statement()?;
                    if !self.eat_ident("while") {
                        return Err(self.error_here("'while'"));
                    }
                    self.expect(Punct::LParen)?;
                    let cond = self.expr()?;
                    self.expect(Punct::RParen)?;
                    self.expect_semicolon("after do/while statement")?;
                    StmtKind::DoWhile(body, cond)
                }
                "for" => {
                    self.pos += 1;
                    self.push_scope();
                    let result = self.for_statement();
                    self.pop_scope();
                    result?
                }
                "switch" => {
                    self.pos += 1;
                    self.expect(Punct::LParen)?;
                    let value = self.expr()?;
                    self.expect(Punct::RParen)?;
                    StmtKind::Switch(value, self.sub_statement()?)
                }
                "case" => {
                    self.pos += 1;
                    let value = self.conditional_expr()?;
                    self.expect(Punct::Colon)?;
                    StmtKind::Case(value, Box::new(self.statement()?))
                }
                "default" if self.peek_at(1).is_punct(Punct::Colon) => {
                    self.pos += 2;
                    StmtKind::Default(Box::new(self.statement()?))
                }
                "break" => {
                    self.pos += 1;
                    self.expect_semicolon("after break statement")?;
                    StmtKind::Break
                }
                "continue" => {
                    self.pos += 1;
                    self.expect_semicolon("after continue statement")?;
                    StmtKind::Continue
                }
                "return" => {
                    self.pos += 1;
                    let value = if self.at(Punct::Semicolon) {
                        None
                    } else {
                        Some(self.expr()?)
                    };
                    self.expect_semicolon("after return statement")?;
                    StmtKind::Return(value)
                }
                "goto" => {
                    self.pos += 1;
                    let label = self.bump();
                    if label.kind != TokenKind::Identifier {
                        self.pos -= 1;
                        return Err(self.error_here("a label"));
                    }
                    self.expect_semicolon("after goto statement")?;
                    StmtKind::Goto(label.text.clone())
                }
                _ if self.peek_at(1).is_punct(Punct::Colon) && !self.starts_declaration() => {
                    self.pos += 2;
                    StmtKind::Labeled(t.text.clone(), Box::new(self.statement()?))
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
                kind: ExprKind::Comma(Box::new(e), Box::new(rhs)),
                location,
            };
        }
        Ok(e)
    }

    fn assignment_expr(&mut self) -> PResult<Expr> {
        self.enter()?;
        let result = self.assignment_inner();
        self.leave();
        result
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
            kind: ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)),
            location,
        })
    }

    fn conditional_expr(&mut self) -> PResult<Expr> {
        let cond = self.binary_expr(0)?;
        if !self.at(Punct::Question) {
            return Ok(cond);
        }
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
            kind: ExprKind::Conditional(Box::new(cond), Box::new(then), Box::new(otherwise?)),
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
                kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs?)),
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

    fn cast_expr(&mut self) -> PResult<Expr> {
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
            if self.at(Punct::LParen) && types::is_vector_type_name(&ty) {
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
        if t.kind == TokenKind::Identifier {
            let word = &*t.text;
            let type_op = match word {
                "sizeof" => Some((
                    ExprKind::SizeofType as fn(Box<TypeName>) -> ExprKind,
                    ExprKind::SizeofExpr as fn(Box<Expr>) -> ExprKind,
                )),
                "vec_step" => Some((
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
            if matches!(word, "_Alignof" | "__alignof__" | "__alignof") {
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
            TokenKind::Identifier => ExprKind::Ident(t.text.clone()),
            TokenKind::IntLiteral => ExprKind::IntLiteral(t.text.clone()),
            TokenKind::FloatLiteral => ExprKind::FloatLiteral(t.text.clone()),
            TokenKind::CharLiteral => ExprKind::CharLiteral(t.text.clone()),
            TokenKind::StringLiteral => {
                // Adjacent string literals concatenate.
                let mut text = String::from(&*t.text);
                while self.peek_at(1).kind == TokenKind::StringLiteral {
                    self.pos += 1;
                    text.pop();
                    text.push_str(&self.peek().text[1..]);
                }
                ExprKind::StringLiteral(text.into())
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

    fn postfix_tail(&mut self, mut e: Expr) -> PResult<Expr> {
        loop {
            let location = self.loc();
            let kind = if self.eat(Punct::LBracket) {
                let index = self.expr()?;
                self.expect(Punct::RBracket)?;
                ExprKind::Index(Box::new(e), Box::new(index))
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
                    name: name.text.clone(),
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
        let unit = parse(&tokens, &mut diags);
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
