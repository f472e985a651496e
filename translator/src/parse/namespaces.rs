//! C++ namespaces, resolved while parsing, so that no later stage meets
//! one: a name declared in namespace `a::b` gets the symbol spelt
//! `a::b::f`, and each use of a name gets the symbol of the declaration
//! C++'s lookup finds for it. A namespace's `f` is then a name of its
//! own, never one more overload of a global `f`.
//!
//! Before parsing, `ns :: name` token runs whose first name is a
//! namespace's are joined into one token (`Parser::join_qualified_names`),
//! and a leading `::` marks its name [`GLOBAL`]; `S::f` with `S` a class
//! stays three tokens, as the parser's class rules expect.
//!
//! Unqualified lookup, as C++ has it: block-scope names and the members
//! of the class whose body is being parsed hide everything; then each
//! enclosing namespace, innermost first, with the members using-directives
//! bring into it; then the global scope. Where two namespaces' members
//! meet at one level (a using-directive's and the scope's own, which C++
//! would overload together or find ambiguous), the parser reports it
//! rather than pick one: picking one could call the wrong function.

use std::collections::{HashMap, HashSet};

use super::keywords::Kw;
use super::{PResult, Parser};
use crate::ast::Name;
use crate::lexer::{token_len, CompactToken};
use crate::token::{Punct, TokenKind};

/// A token flag: the name was written after a leading `::`, so it is
/// already the whole qualified name.
pub(super) const GLOBAL: u8 = 0x80;

/// The parser's namespace state.
#[derive(Default)]
pub(super) struct Namespaces {
    /// Whether the program has a namespace at all; when not, every name
    /// is its own symbol and nothing here runs.
    active: bool,
    /// The open namespaces, innermost last: each one's qualified symbol,
    /// or `None` for an unnamed one (whose members are its enclosing
    /// namespace's, as if a using-directive named it there).
    open: Vec<Option<u32>>,
    /// The qualified symbols declared in namespaces, and the namespaces.
    declared: HashSet<u32>,
    namespaces: HashSet<u32>,
    /// The symbol of each qualified spelling made so far.
    symbols: HashMap<Box<str>, u32>,
    /// The unqualified name of each qualified symbol (`f` of `a::f`).
    member_of: HashMap<u32, u32>,
    /// `namespace x = a::b;`: the target of each alias, by spelling.
    aliases: HashMap<Box<str>, u32>,
    /// The using-directives and using-declarations in force.
    usings: Vec<Using>,
    /// The member names of each class with a body, by its symbol, and
    /// those hiding namespace members now (the classes whose member
    /// functions are being parsed).
    class_members: HashMap<u32, Vec<u32>>,
    hiding: Vec<u32>,
}

/// A using-directive or using-declaration, and where it ends.
struct Using {
    kind: UsingKind,
    /// It ends when fewer block scopes or namespaces are open.
    scopes: usize,
    namespaces: usize,
}

enum UsingKind {
    /// `using namespace ns;`: the namespace, and the depth (in named
    /// namespaces) of the innermost namespace enclosing both it and the
    /// directive, where C++ has its members appear.
    Directive { namespace: u32, level: usize },
    /// `using ns::f;`: `f` means `ns::f`.
    Declaration { name: u32, target: u32 },
}

/// One place a name may be declared, in lookup order.
enum Level {
    Namespace(u32),
    Global,
}

impl Parser {
    /// Joins `ns :: name` runs into single tokens (see the module's
    /// documentation); first finds which names are namespaces'. Says
    /// whether it joined any (the keyword classes, `words`, are then
    /// stale).
    pub(super) fn join_qualified_names(&mut self) -> bool {
        let mut namespace_names = HashSet::new();
        for i in 0..self.tokens.len() {
            if self.words[i] == Kw::Namespace {
                let mut j = i + 1;
                while let Some(name) = self
                    .tokens
                    .get(j)
                    .filter(|n| n.kind == TokenKind::Identifier)
                {
                    namespace_names.insert(name.sym);
                    let spelling = self.spellings.get(name.sym).into();
                    self.namespaces.symbols.insert(spelling, name.sym);
                    if !self.scope_operator_at_index(j + 1) {
                        break;
                    }
                    j += 3;
                }
            }
        }
        let any_global = (0..self.tokens.len()).any(|i| self.global_scope_operator_at(i));
        if namespace_names.is_empty() && !any_global {
            return false;
        }
        self.namespaces.active = true;
        let mut joined = Vec::with_capacity(self.tokens.len());
        let mut i = 0;
        while i < self.tokens.len() {
            let mut t = self.tokens[i];
            let global = self.global_scope_operator_at(i);
            if global {
                i += 2;
                t = self.tokens[i];
            }
            let start = t;
            let mut spelling: Option<String> = None;
            let mut last = t;
            while t.kind == TokenKind::Identifier
                && namespace_names.contains(&last.sym)
                && self.scope_operator_at_index(i + 1)
                && self
                    .tokens
                    .get(i + 3)
                    .is_some_and(|n| n.kind == TokenKind::Identifier)
            {
                let member = self.tokens[i + 3];
                let text = spelling.get_or_insert_with(|| self.text(start).to_owned());
                text.push_str("::");
                text.push_str(self.spellings.get(member.sym));
                last = member;
                i += 3;
            }
            if let Some(text) = spelling {
                t.sym = self.qualified_symbol(&text);
                self.namespaces.member_of.insert(t.sym, last.sym);
                if last.location.file == start.location.file {
                    t.len = token_len((last.end() - start.location.offset) as usize);
                }
            }
            if global {
                t.flags |= GLOBAL;
            }
            joined.push(t);
            i += 1;
        }
        self.tokens = joined;
        true
    }

    /// Whether tokens `i` and `i + 1` are `::` (see `scope_operator_at`).
    fn scope_operator_at_index(&self, i: usize) -> bool {
        match (self.tokens.get(i), self.tokens.get(i + 1)) {
            (Some(first), Some(second)) => {
                first.is_punct(Punct::Colon)
                    && second.is_punct(Punct::Colon)
                    && first.location.file == second.location.file
                    && first.location.offset + 1 == second.location.offset
            }
            _ => false,
        }
    }

    /// Whether a leading `::` and a name are at token `i`: not after a
    /// name, `>` or `)`, after which `::` qualifies what comes before.
    fn global_scope_operator_at(&self, i: usize) -> bool {
        let after_qualifier = i.checked_sub(1).is_some_and(|p| {
            let t = self.tokens[p];
            matches!(self.words[p], Kw::Name | Kw::BuiltinType)
                || t.is_punct(Punct::Gt)
                || t.is_punct(Punct::RParen)
        });
        !after_qualifier
            && self.scope_operator_at_index(i)
            && self
                .tokens
                .get(i + 2)
                .is_some_and(|n| n.kind == TokenKind::Identifier)
    }

    /// The symbol spelt `text`, a qualified name or another spelling the
    /// parser makes, made on first use.
    pub(super) fn qualified_symbol(&mut self, text: &str) -> u32 {
        if let Some(&sym) = self.namespaces.symbols.get(text) {
            return sym;
        }
        let sym = std::rc::Rc::make_mut(&mut self.spellings).push(text);
        if self.names.len() <= sym as usize {
            self.names.resize(sym as usize + 1, None);
        }
        self.namespaces.symbols.insert(text.into(), sym);
        sym
    }

    /// `namespace::name`'s symbol.
    fn join(&mut self, namespace: u32, name: u32) -> u32 {
        let text = format!(
            "{}::{}",
            self.spellings.get(namespace),
            self.spellings.get(name)
        );
        let sym = self.qualified_symbol(&text);
        self.namespaces.member_of.insert(sym, name);
        sym
    }

    /// The innermost named namespace open, if any.
    fn current_namespace(&self) -> Option<u32> {
        self.namespaces.open.iter().rev().find_map(|n| *n)
    }

    /// Whether a declaration here declares a namespace member: in a
    /// named namespace, outside functions and classes.
    fn at_namespace_scope(&self) -> bool {
        self.namespaces.active
            && self.function_depth == 0
            && self.record_depth == 0
            && self.current_namespace().is_some()
    }

    /// The name a declaration of `name` here declares: in a namespace,
    /// the qualified one, recorded as declared; elsewhere `name`.
    pub(super) fn declared_name(&mut self, name: Name) -> Name {
        // Operators stay global: C++ finds a namespace's by the operands'
        // types, and the checker finds them by them too.
        if !self.at_namespace_scope()
            || self.spellings.get(name.0).contains("::")
            || self.operator_names.contains(&name)
        {
            return name;
        }
        let namespace = self.current_namespace().expect("in a namespace");
        let qualified = self.join(namespace, name.0);
        self.namespaces.declared.insert(qualified);
        Name(qualified)
    }

    /// The name a declarator's name token `t` gives: a qualified one
    /// (`ns::f`, `::f`) names a namespace member declared before, and is
    /// resolved; an unqualified one is qualified where it is declared
    /// ([`Parser::declared_name`]).
    pub(super) fn qualified_declarator_name(&self, t: CompactToken) -> u32 {
        if self.namespaces.active
            && (t.flags & GLOBAL != 0 || self.spellings.get(t.sym).contains("::"))
        {
            self.resolved(t)
        } else {
            t.sym
        }
    }

    /// Opens, for lookup alone, the namespace whose member `name` is
    /// where a file-scope declarator names one by a qualified name
    /// (`int ns::f(T x) {...}`, `ns::S::f`): as in C++, the rest of the
    /// declaration sees that namespace's names. `Parser::external_decl`
    /// closes it.
    pub(super) fn enter_namespace_of(&mut self, name: Name) {
        if !self.namespaces.active || self.function_depth > 0 || self.record_depth > 0 {
            return;
        }
        let text = self.spellings.get(name.0);
        let Some((namespace, _)) = text.rsplit_once("::") else {
            return;
        };
        let namespace = self.namespaces.symbols.get(namespace).copied();
        if let Some(namespace) = namespace.filter(|n| self.namespaces.namespaces.contains(n)) {
            self.namespaces.open.push(Some(namespace));
        }
    }

    /// The namespaces open now, to restore with
    /// [`Parser::restore_namespaces`] after a declaration that may have
    /// entered one ([`Parser::enter_namespace_of`]).
    pub(super) fn open_namespaces(&self) -> usize {
        self.namespaces.open.len()
    }

    pub(super) fn restore_namespaces(&mut self, open: usize) {
        self.namespaces.open.truncate(open);
    }

    /// The name a struct, union or enum tag `t` (read) declares or refers
    /// to: a definition or a declaration alone (`struct S;`) declares it
    /// here; otherwise it is looked up, and declared here where not found,
    /// as C++ has it.
    pub(super) fn tag_name(&mut self, t: CompactToken) -> u32 {
        if !self.namespaces.active {
            return t.sym;
        }
        let declares = self.at(Punct::LBrace) || self.at(Punct::Semicolon);
        let qualified = t.flags & GLOBAL != 0 || self.spellings.get(t.sym).contains("::");
        if declares && !qualified {
            return self.declared_name(Name(t.sym)).0;
        }
        let found = self.resolved(t);
        if qualified || self.is_declared(found) {
            found
        } else {
            self.declared_name(Name(t.sym)).0
        }
    }

    /// Whether name token `t` is the name of class `tag`: a constructor's.
    pub(super) fn names_class(&self, tag: Name, t: CompactToken) -> bool {
        t.sym == tag.0
            || self.resolved(t) == tag.0
            || self.namespaces.member_of.get(&tag.0) == Some(&t.sym)
    }

    /// Records the member names of the class body that starts here (its
    /// `{` read), which hide namespace members in its member functions,
    /// as C++ has all of a class's members in scope in each of them:
    /// every name at the body's own level, outside initializers and
    /// bit-field widths, that a declarator could end with.
    pub(super) fn note_class_members(&mut self, class: u32) {
        if !self.namespaces.active {
            return;
        }
        let own_name = self.namespaces.member_of.get(&class).copied();
        let mut members = Vec::new();
        let mut depth = 0u32;
        // After a member's `=` or bit-field `:`, to its `,` or `;`.
        let mut in_initializer = false;
        for (i, t) in self.tokens[self.pos..].iter().enumerate() {
            match t.kind {
                TokenKind::Punct(Punct::LBrace | Punct::LParen | Punct::LBracket) => depth += 1,
                TokenKind::Punct(Punct::RBrace | Punct::RParen | Punct::RBracket) => {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                }
                TokenKind::Punct(Punct::Assign) if depth == 0 => in_initializer = true,
                // A bit-field's: after its name, not after `public` or
                // a constructor's `)`.
                TokenKind::Punct(Punct::Colon)
                    if depth == 0
                        && i > 0
                        && self.kw_at(i - 1) == Kw::Name
                        && !self.scope_operator_at(i) =>
                {
                    in_initializer = true;
                }
                TokenKind::Punct(Punct::Comma | Punct::Semicolon) if depth == 0 => {
                    in_initializer = false;
                }
                TokenKind::Identifier
                    if depth == 0 && !in_initializer && self.kw_at(i) == Kw::Name =>
                {
                    let next = self.peek_at(i + 1);
                    let ends_declarator = matches!(
                        next.kind,
                        TokenKind::Punct(
                            Punct::Semicolon
                                | Punct::Comma
                                | Punct::LBracket
                                | Punct::Assign
                                | Punct::LParen
                                | Punct::LBrace
                                | Punct::Colon
                        )
                    ) && !self.scope_operator_at(i + 1);
                    if ends_declarator && t.sym != class && Some(t.sym) != own_name {
                        members.push(t.sym);
                    }
                }
                _ => {}
            }
        }
        self.namespaces.class_members.insert(class, members);
    }

    /// What `parse` makes of what follows with class `class`'s members
    /// hiding namespace members: its body, or a member function's
    /// defined outside it.
    pub(super) fn with_class_members<T>(
        &mut self,
        class: Option<Name>,
        parse: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let hidden_before = self.namespaces.hiding.len();
        if let Some(members) = class.and_then(|c| self.namespaces.class_members.get(&c.0)) {
            let members = members.clone();
            self.namespaces.hiding.extend(members);
        }
        let parsed = parse(self);
        self.namespaces.hiding.truncate(hidden_before);
        parsed
    }

    /// The name an expression's name token `t` refers to, with C++'s
    /// ambiguities reported.
    #[inline]
    pub(super) fn name_used(&mut self, t: CompactToken) -> Name {
        if !self.lambda_frames.is_empty() {
            self.note_name_use(t, t.sym);
        }
        if !self.namespaces.active {
            return Name(t.sym);
        }
        self.check_unambiguous(t);
        Name(self.resolved(t))
    }

    /// The name token `t` refers to, by C++'s lookup (see the module's
    /// documentation).
    #[inline]
    pub(super) fn resolved(&self, t: CompactToken) -> u32 {
        if !self.namespaces.active {
            return t.sym;
        }
        self.resolved_slow(t).unwrap_or(t.sym)
    }

    fn resolved_slow(&self, t: CompactToken) -> Option<u32> {
        let sym = self.aliased(t.sym).unwrap_or(t.sym);
        if t.flags & GLOBAL != 0 || sym != t.sym {
            return Some(sym);
        }
        if self.names[sym as usize].is_some_and(|d| d.block)
            || self.namespaces.hiding.contains(&sym)
        {
            return Some(sym);
        }
        for using in self.namespaces.usings.iter().rev() {
            if let UsingKind::Declaration { name, target } = using.kind {
                if name == sym {
                    return Some(target);
                }
            }
        }
        let (found, _) = self.candidates(sym).into_iter().next()?;
        Some(found)
    }

    /// `x::rest` with `x` a namespace alias: the symbol of the target's
    /// `rest`, if it has been made.
    fn aliased(&self, sym: u32) -> Option<u32> {
        let text = self.spellings.get(sym);
        let (first, rest) = text.split_once("::")?;
        let target = self.namespaces.aliases.get(first)?;
        let text = format!("{}::{rest}", self.spellings.get(*target));
        self.namespaces.symbols.get(text.as_str()).copied()
    }

    /// The declarations `sym` may mean at the first level of lookup that
    /// has any, with the level.
    fn candidates(&self, sym: u32) -> Vec<(u32, usize)> {
        let named: Vec<u32> = self.namespaces.open.iter().flatten().copied().collect();
        let levels = named
            .iter()
            .enumerate()
            .rev()
            .map(|(depth, &n)| (depth + 1, Level::Namespace(n)))
            .chain([(0, Level::Global)]);
        for (depth, level) in levels {
            let mut found = Vec::new();
            let own = match level {
                Level::Namespace(n) => self.lookup_join(n, sym),
                Level::Global => self.names[sym as usize].map(|_| sym),
            };
            found.extend(own.filter(|s| self.is_declared(*s)).map(|s| (s, depth)));
            for using in &self.namespaces.usings {
                if let UsingKind::Directive { namespace, level } = using.kind {
                    if level == depth {
                        if let Some(s) = self.lookup_join(namespace, sym) {
                            if self.namespaces.declared.contains(&s)
                                && !found.iter().any(|f| f.0 == s)
                            {
                                found.push((s, depth));
                            }
                        }
                    }
                }
            }
            if !found.is_empty() {
                return found;
            }
        }
        Vec::new()
    }

    fn is_declared(&self, sym: u32) -> bool {
        self.namespaces.declared.contains(&sym) || self.names[sym as usize].is_some()
    }

    /// `namespace::name`'s symbol, if it has been made.
    fn lookup_join(&self, namespace: u32, name: u32) -> Option<u32> {
        let text = format!(
            "{}::{}",
            self.spellings.get(namespace),
            self.spellings.get(name)
        );
        self.namespaces.symbols.get(text.as_str()).copied()
    }

    /// Reports a name that C++ would find in two namespaces at once (see
    /// the module's documentation); `at` is the name's token.
    pub(super) fn check_unambiguous(&mut self, t: CompactToken) {
        if !self.namespaces.active || t.flags & GLOBAL != 0 || self.namespaces.usings.is_empty() {
            return;
        }
        if self.names[t.sym as usize].is_some_and(|d| d.block)
            || self.namespaces.hiding.contains(&t.sym)
        {
            return;
        }
        let found = self.candidates(t.sym);
        let builtin_too = found.iter().all(|f| f.1 == 0)
            && found.iter().any(|f| f.0 != t.sym)
            && crate::builtins::Builtin::from_name(self.spellings.get(t.sym)).is_some();
        if found.len() > 1 || builtin_too {
            let name = self.spellings.get(t.sym).to_owned();
            self.diags.error(
                t.location,
                format!(
                    "overloads that span namespaces (here '{name}', through a using-directive) are {}",
                    crate::language::NOT_YET
                ),
            );
        }
    }

    /// At file scope: a namespace definition or alias, or a
    /// using-directive or using-declaration, if one comes next; says
    /// whether one did (and has been parsed, or reported).
    pub(super) fn namespace_item(&mut self) -> bool {
        if self.kw() == Kw::Inline && self.kw_at(1) == Kw::Namespace {
            let at = self.loc();
            self.unsupported_cxx(at, "inline namespaces");
            return true;
        }
        let parsed = match self.kw() {
            Kw::Namespace => self.namespace_definition().map(|opened| {
                if opened > 0 {
                    self.open_blocks.push(super::OpenBlock::Namespace(opened));
                }
            }),
            Kw::Using if self.at_using_namespace_member() => self.using_directive_or_declaration(),
            _ => return false,
        };
        if parsed.is_err() {
            self.recover();
        }
        true
    }

    /// Whether `using` starts a using-directive or using-declaration
    /// rather than an alias declaration (`using T = ...;`).
    pub(super) fn at_using_namespace_member(&self) -> bool {
        self.kw_at(1) == Kw::Namespace || !self.peek_at(2).is_punct(Punct::Assign)
    }

    /// `namespace name {`, `namespace a::b {`, `namespace {` or
    /// `namespace x = a::b;`, the keyword next: how many namespaces the
    /// `{` read opens (none for an alias), which its `}` closes
    /// ([`Parser::close_namespaces`]).
    pub(super) fn namespace_definition(&mut self) -> PResult<usize> {
        self.pos += 1;
        let name = self.peek();
        if name.kind == TokenKind::Identifier && self.peek_at(1).is_punct(Punct::Assign) {
            self.pos += 2;
            let target = self.bump();
            if target.kind != TokenKind::Identifier {
                self.pos -= 1;
                return Err(self.error_here("namespace name"));
            }
            let target_sym = self.namespace_named(target)?;
            self.expect_semicolon("after namespace alias")?;
            let alias = self.spellings.get(name.sym).into();
            self.namespaces.aliases.insert(alias, target_sym);
            return Ok(0);
        }
        let mut opened = 0;
        if name.kind == TokenKind::Identifier {
            self.pos += 1;
            // `a::b` is one token, and opens `a` and then `a::b`.
            let text = self.spellings.get(name.sym).to_owned();
            let mut parts = text.split("::");
            let first = parts.next().unwrap_or_default().to_owned();
            let mut qualified = match self.current_namespace() {
                Some(outer) => format!("{}::{first}", self.spellings.get(outer)),
                None => first,
            };
            loop {
                let sym = self.qualified_symbol(&qualified);
                self.namespaces.namespaces.insert(sym);
                self.namespaces.declared.insert(sym);
                self.namespaces.open.push(Some(sym));
                opened += 1;
                match parts.next() {
                    Some(part) => {
                        qualified.push_str("::");
                        qualified.push_str(part);
                    }
                    None => break,
                }
            }
        } else {
            self.namespaces.open.push(None);
            opened = 1;
        }
        if !self.eat(Punct::LBrace) {
            self.close_namespaces(opened);
            return Err(self.error_here("'{'"));
        }
        Ok(opened)
    }

    /// Closes the `opened` innermost namespaces, at their `}`.
    pub(super) fn close_namespaces(&mut self, opened: usize) {
        let remaining = self.namespaces.open.len().saturating_sub(opened);
        self.namespaces.open.truncate(remaining);
        self.namespaces.usings.retain(|u| u.namespaces <= remaining);
    }

    /// The namespace `t` names (an alias's target), or an error.
    fn namespace_named(&mut self, t: CompactToken) -> PResult<u32> {
        let text = self.spellings.get(t.sym);
        if let Some(&target) = self.namespaces.aliases.get(text) {
            return Ok(target);
        }
        let sym = if t.flags & GLOBAL != 0 {
            Some(t.sym)
        } else {
            self.namespace_candidates(t.sym)
        };
        match sym {
            Some(sym) => Ok(sym),
            None => {
                let name = text.to_owned();
                self.diags.error(
                    t.location,
                    format!("expected namespace name ('{name}' is not one)"),
                );
                Err(super::Reported)
            }
        }
    }

    /// The namespace `sym` names from here: in the innermost enclosing
    /// namespace that has one of that name, or at global scope.
    fn namespace_candidates(&self, sym: u32) -> Option<u32> {
        let named: Vec<u32> = self.namespaces.open.iter().flatten().copied().collect();
        for &n in named.iter().rev() {
            if let Some(s) = self.lookup_join(n, sym) {
                if self.namespaces.namespaces.contains(&s) {
                    return Some(s);
                }
            }
        }
        self.namespaces.namespaces.contains(&sym).then_some(sym)
    }

    /// `using namespace ns;` or `using ns::name;`, the `using` next and
    /// no `=` after the name (an alias declaration has one).
    pub(super) fn using_directive_or_declaration(&mut self) -> PResult<()> {
        let keyword = self.bump();
        if self.eat_kw(Kw::Namespace) {
            let t = self.bump();
            if t.kind != TokenKind::Identifier {
                self.pos -= 1;
                return Err(self.error_here("namespace name"));
            }
            let namespace = self.namespace_named(t)?;
            self.expect_semicolon("after using-directive")?;
            let level = self.directive_level(namespace);
            self.push_using(UsingKind::Directive { namespace, level });
            return Ok(());
        }
        let t = self.bump();
        let text = self.spellings.get(t.sym).to_owned();
        let Some((_, member)) = text.rsplit_once("::") else {
            return Err(self.unsupported_cxx(
                keyword.location,
                "using-declarations other than of namespace members",
            ));
        };
        let target = self.resolved(t);
        if !self.namespaces.declared.contains(&target) {
            self.diags.error(
                t.location,
                format!(
                    "no member named '{member}' in '{}'",
                    &text[..text.len() - member.len() - 2]
                ),
            );
            return Err(super::Reported);
        }
        self.expect_semicolon("after using-declaration")?;
        if let Some(&name) = self.namespaces.member_of.get(&target) {
            self.push_using(UsingKind::Declaration { name, target });
        }
        Ok(())
    }

    fn push_using(&mut self, kind: UsingKind) {
        self.namespaces.usings.push(Using {
            kind,
            scopes: self.scope_starts.len(),
            namespaces: self.namespaces.open.len(),
        });
    }

    /// Where a using-directive here for `namespace` has its members
    /// appear: the depth of the innermost namespace enclosing both.
    fn directive_level(&self, namespace: u32) -> usize {
        let target = self.spellings.get(namespace);
        let target: Vec<&str> = target.split("::").collect();
        let here = self
            .current_namespace()
            .map(|n| self.spellings.get(n).to_owned())
            .unwrap_or_default();
        let here: Vec<&str> = if here.is_empty() {
            Vec::new()
        } else {
            here.split("::").collect()
        };
        here.iter().zip(&target).take_while(|(a, b)| a == b).count()
    }

    /// Ends the usings of a block scope that closes.
    pub(super) fn end_block_usings(&mut self) {
        let scopes = self.scope_starts.len();
        self.namespaces.usings.retain(|u| u.scopes <= scopes);
    }
}
