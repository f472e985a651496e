//! Declarations: external declarations and function definitions,
//! declaration specifiers (storage classes, qualifiers, type specifiers,
//! structs, unions and enums), attributes, and the typedef-name scopes
//! that decide whether a name starts a declaration.

use crate::image::ImageAccess;
use std::sync::Arc;

use super::keywords::{add_qualifier, add_scalar_word, Kw};
use super::{PResult, Parser, Reported};
use crate::ast::{
    AddressSpace, AliasTemplate, Attribute, Block, ClassTemplate, DeclSpecs, Declaration,
    Declarator, Derived, EnumSpec, ExternalDecl, FieldDecl, FunctionDef, FunctionTemplate,
    InitDeclarator, MemberInit, MethodDecl, MethodTemplate, Name, Qualifiers, RecordKind,
    RecordSpec, ScalarWords, StaticAssert, StorageClass, TemplateParam, TypeName, TypeSpec,
};
use crate::diagnostic::Location;
use crate::token::{Punct, TokenKind};

/// One member declaration of a record body.
enum Member {
    Field(FieldDecl),
    Method(MethodDecl),
    MethodTemplate(MethodTemplate),
    /// A `friend` declaration: what it declares, if anything, is one of
    /// the program's (`Parser::hoisted`).
    Friend,
    Static(Declaration),
    Type(Declaration),
}

/// What the parser knows of a declared name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Declared {
    /// It names a type.
    pub typedef: bool,
    /// It was declared in a block or parameter scope, where it hides
    /// namespace members (see `namespaces`).
    pub block: bool,
    /// How many scopes were open where it was declared.
    pub depth: u32,
}

impl Parser {
    /// Is the token at `n` a typedef name in the current scope?
    #[inline]
    fn is_typedef_at(&self, n: usize) -> bool {
        self.kw_at(n) != Kw::NotIdent
            && self.names[self.resolved(self.peek_at(n)) as usize].is_some_and(|d| d.typedef)
    }

    pub(super) fn declare_name(&mut self, name: Name, is_typedef: bool) {
        let id = name.0;
        let declared = Declared {
            typedef: is_typedef,
            block: !self.scope_starts.is_empty(),
            depth: self.scope_starts.len() as u32,
        };
        let previous = self.names[id as usize].replace(declared);
        // At file scope nothing is ever restored.
        if !self.scope_starts.is_empty() {
            self.shadowed.push((id, previous));
        }
    }

    pub(super) fn push_scope(&mut self) {
        self.scope_starts.push(self.shadowed.len());
    }

    pub(super) fn pop_scope(&mut self) {
        let Some(start) = self.scope_starts.pop() else {
            return;
        };
        for &(id, previous) in self.shadowed[start..].iter().rev() {
            self.names[id as usize] = previous;
        }
        self.shadowed.truncate(start);
        self.end_block_usings();
    }

    /// Does the token at `n` start a type name (in a cast or sizeof)?
    #[inline]
    pub(super) fn starts_type(&self, n: usize) -> bool {
        match self.kw_at(n) {
            Kw::NotIdent => false,
            kw => kw.starts_type() || (self.is_typedef_at(n) && !self.names_member_value(n)),
        }
    }

    /// C++: whether the class name at `n` begins `S::x` or `S<...>::x`
    /// naming a member that is not a type (a static data member, say):
    /// the start of an expression, not of a type.
    fn names_member_value(&self, n: usize) -> bool {
        if !self.cxx {
            return false;
        }
        let class = self.resolved(self.peek_at(n));
        let mut end = n + 1;
        if self.peek_at(end).is_punct(Punct::Lt) && self.template_names.contains_key(&class) {
            // Past the template's arguments.
            let mut depth = 0i32;
            loop {
                let t = self.peek_at(end);
                match t.kind {
                    TokenKind::Punct(Punct::Lt) => depth += 1,
                    TokenKind::Punct(Punct::Gt) => depth -= 1,
                    TokenKind::Punct(Punct::Shr) => depth -= 2,
                    TokenKind::Punct(Punct::Semicolon | Punct::LBrace | Punct::RBrace)
                    | TokenKind::Eof => return false,
                    _ => {}
                }
                end += 1;
                if depth <= 0 {
                    break;
                }
            }
        }
        self.scope_operator_at(end)
            && !self
                .member_types
                .get(&class)
                .is_some_and(|names| names.contains(&self.peek_at(end + 2).sym))
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

    pub(super) fn starts_declaration(&self) -> bool {
        match self.kw() {
            Kw::NotIdent | Kw::New | Kw::Delete => false,
            Kw::Storage(_) | Kw::Inline | Kw::Kernel | Kw::Constexpr | Kw::Auto => true,
            // `T * x` with T a typedef is a declaration; `x * y` is not. Two
            // names in a row can only be a declaration with an unknown type.
            // `S::f(x);` is a call of a static member function, and
            // `S::value_type x;` declares `x`.
            _ if self.cxx && self.scope_operator_at(1) => {
                let class = self.resolved(self.peek());
                let member = self.peek_at(3).sym;
                self.member_types
                    .get(&class)
                    .is_some_and(|names| names.contains(&member))
            }
            _ => self.starts_type(0) || self.peek_at(1).kind == TokenKind::Identifier,
        }
    }

    pub(super) fn external_decl(&mut self) -> PResult<ExternalDecl> {
        let open = self.open_namespaces();
        let decl = self.external_decl_inner();
        self.restore_namespaces(open);
        decl
    }

    fn external_decl_inner(&mut self) -> PResult<ExternalDecl> {
        if self.kw() == Kw::StaticAssert {
            return Ok(ExternalDecl::StaticAssert(self.static_assert()?));
        }
        if self.kw() == Kw::Using {
            return Ok(ExternalDecl::Declaration(self.alias_declaration()?));
        }
        if self.kw() == Kw::Template {
            return self.function_template();
        }
        let specs = if self.cxx && self.at_constructor_definition() {
            Self::constructor_specs(self.loc())
        } else {
            self.decl_specs()?
        };
        if self.eat(Punct::Semicolon) {
            return Ok(ExternalDecl::Declaration(Declaration {
                location: specs.location,
                specs,
                declarators: Vec::new(),
            }));
        }
        let mut declarator = self.named_declarator()?;
        if declarator.class.is_none() && !specs.is_kernel {
            if let Some((name, _)) = &mut declarator.name {
                *name = self.declared_name(*name);
            }
        }
        let mut this_qualifiers = Qualifiers::default();
        let mut member_inits = Vec::new();
        if let Some((_, at)) = declarator.class {
            let function = matches!(declarator.derived.first(), Some(Derived::Function { .. }));
            while function && add_qualifier(&mut this_qualifiers, self.kw()) {
                self.pos += 1;
            }
            self.exception_specification()?;
            if !function {
                // `int S::count = 1;`: a static data member's definition.
                let decl = self.rest_of_declaration(specs, declarator)?;
                return Ok(ExternalDecl::Declaration(decl));
            }
            member_inits = self.member_initializers()?;
            if !self.at(Punct::LBrace) {
                return Err(self.unsupported_cxx(
                    at,
                    "qualified declarations other than member function definitions",
                ));
            }
        }
        if self.at(Punct::LBrace) {
            if !matches!(declarator.derived.first(), Some(Derived::Function { .. })) {
                return Err(self.error_here("';' after declaration"));
            }
            if let (Some((name, _)), None) = (&declarator.name, declarator.class) {
                self.declare_name(*name, false);
            }
            let class = declarator.class.map(|(class, _)| class);
            let body = self.with_class_members(class, |p| p.function_body(&declarator))?;
            return Ok(ExternalDecl::Function(FunctionDef {
                specs,
                declarator,
                this_qualifiers,
                member_inits,
                body,
            }));
        }
        let decl = self.rest_of_declaration(specs, declarator)?;
        Ok(ExternalDecl::Declaration(decl))
    }

    /// `template <typename T, ...>` and the function definition it
    /// makes a template of, the keyword next. The parameters are type
    /// names in it.
    fn function_template(&mut self) -> PResult<ExternalDecl> {
        let location = self.bump().location;
        self.expect(Punct::Lt)?;
        let mut params = Vec::new();
        if self.eat(Punct::Gt) {
            // `template <>`: an explicit specialization.
        } else {
            // Each parameter is a name from its declaration on: a default
            // may use the ones before it (`typename U = T`).
            self.push_scope();
            let parsed = self.template_parameters(&mut params);
            self.pop_scope();
            parsed?;
        }
        if self.kw() == Kw::Template {
            return Err(self.unsupported_cxx(location, "member templates"));
        }
        if matches!(self.kw(), Kw::Struct | Kw::Union) {
            return self.class_template(params, location);
        }
        if self.kw() == Kw::Using && !params.is_empty() {
            return self.alias_template(params, location);
        }
        let mut function =
            self.with_template_parameters(&params, |p| p.template_function(&params, location))?;
        if let Some((name, _)) = &mut function.declarator.name {
            *name = self.declared_name(*name);
        }
        match function.declarator.name {
            // An explicit specialization leaves the template as it is.
            Some((name, _)) if !params.is_empty() => {
                self.declare_template_name(name, false, &params)
            }
            _ => {}
        }
        Ok(ExternalDecl::FunctionTemplate(Arc::new(FunctionTemplate {
            params,
            function,
            location,
        })))
    }

    /// A template's parameter list, up to its `>`.
    fn template_parameters(&mut self, params: &mut Vec<TemplateParam>) -> PResult<()> {
        loop {
            let value_type = if matches!(self.kw(), Kw::Typename | Kw::Struct) {
                self.pos += 1;
                None
            } else if matches!(self.kw(), Kw::Scalar(_) | Kw::BuiltinType) {
                // `int N`: the type alone, the name after it.
                Some(TypeName {
                    specs: self.decl_specs()?,
                    declarator: Declarator::default(),
                })
            } else {
                let at = self.loc();
                return Err(
                    self.unsupported_cxx(at, "template parameters other than types and integers")
                );
            };
            let pack = self.eat(Punct::Ellipsis);
            let t = self.peek();
            if t.kind != TokenKind::Identifier {
                return Err(self.error_here("a template parameter name"));
            }
            self.pos += 1;
            self.declare_name(Name(t.sym), value_type.is_none());
            let default = if self.eat(Punct::Assign) {
                Some(self.template_argument(value_type.is_some())?)
            } else {
                None
            };
            params.push(TemplateParam {
                name: Name(t.sym),
                location: t.location,
                value_type,
                default,
                pack,
            });
            if !self.eat(Punct::Comma) {
                break;
            }
        }
        self.expect(Punct::Gt)
    }

    /// `using Name = type;` after a template's parameters, the `using`
    /// next.
    fn alias_template(
        &mut self,
        params: Vec<TemplateParam>,
        location: Location,
    ) -> PResult<ExternalDecl> {
        self.pos += 1;
        let name = self.peek();
        if name.kind != TokenKind::Identifier || !self.peek_at(1).is_punct(Punct::Assign) {
            return Err(self.error_here("an alias name and '='"));
        }
        self.pos += 2;
        let ty = self.with_template_parameters(&params, Self::type_name)?;
        self.expect_semicolon("after alias template")?;
        let alias = self.declared_name(Name(name.sym));
        self.declare_template_name(alias, true, &params);
        Ok(ExternalDecl::AliasTemplate(Arc::new(AliasTemplate {
            params,
            name: alias,
            ty,
            location,
        })))
    }

    /// Declares `name` (a type name for a class template) as a template
    /// with `params`, which template arguments may follow from here on.
    fn declare_template_name(&mut self, name: Name, is_type: bool, params: &[TemplateParam]) {
        self.declare_name(name, is_type);
        let values = params.iter().map(|p| p.value_type.is_some()).collect();
        self.template_names.insert(name.0, values);
    }

    /// What `parse` makes of what follows, with template parameters
    /// `params` type names in it.
    pub(super) fn with_template_parameters<T>(
        &mut self,
        params: &[TemplateParam],
        parse: impl FnOnce(&mut Self) -> PResult<T>,
    ) -> PResult<T> {
        self.push_scope();
        for p in params {
            self.declare_name(p.name, p.value_type.is_none());
        }
        let parsed = parse(self);
        self.pop_scope();
        parsed
    }

    /// The class definition of a template with parameters `params`, the
    /// `struct` or `class` next.
    fn class_template(
        &mut self,
        params: Vec<TemplateParam>,
        location: Location,
    ) -> PResult<ExternalDecl> {
        // The template's name takes arguments in its own body
        // (`Fact<N - 1>`): `record_spec` declares it as soon as it reads it.
        self.class_template_params = Some(params.iter().map(|p| p.value_type.is_some()).collect());
        let specs = self.with_template_parameters(&params, Self::decl_specs);
        self.class_template_params = None;
        let specs = specs?;
        let record = match &specs.ty {
            // A definition, or a declaration of the template alone
            // (`template <typename... Ts> struct Tuple;`) that its
            // specializations define.
            TypeSpec::Record(record)
                if record.tag.is_some()
                    && (record.fields.is_some() || record.pattern.is_none()) =>
            {
                Arc::clone(record)
            }
            _ => {
                return Err(
                    self.unsupported_cxx(location, "class templates other than definitions")
                );
            }
        };
        self.expect_semicolon("after class template")?;
        match record.tag {
            // A specialization leaves the template's parameters as they are.
            Some(tag) if record.pattern.is_none() => self.declare_template_name(tag, true, &params),
            _ => {}
        }
        Ok(ExternalDecl::ClassTemplate(Arc::new(ClassTemplate {
            params,
            record,
            location,
        })))
    }

    /// The function definition of a template.
    fn template_function(
        &mut self,
        params: &[TemplateParam],
        location: Location,
    ) -> PResult<FunctionDef> {
        let specs = self.decl_specs()?;
        let declarator = self.named_declarator()?;
        let function = matches!(declarator.derived.first(), Some(Derived::Function { .. }));
        if !function || declarator.class.is_some() || !self.at(Punct::LBrace) {
            return Err(self.unsupported_cxx(location, "templates other than function definitions"));
        }
        if let (Some((name, _)), false) = (declarator.name, params.is_empty()) {
            // The body may name the template with arguments (`g<N + 1>(x)`).
            let name = self.declared_name(name);
            let values = params.iter().map(|p| p.value_type.is_some()).collect();
            self.template_names.insert(name.0, values);
        }
        let body = self.function_body(&declarator)?;
        Ok(FunctionDef {
            specs,
            declarator,
            this_qualifiers: Qualifiers::default(),
            member_inits: Vec::new(),
            body,
        })
    }

    /// C++'s `using Name = type-id ;`, as the typedef it is; the keyword
    /// next. Using-declarations and using-directives are not there yet.
    pub(super) fn alias_declaration(&mut self) -> PResult<Declaration> {
        let keyword = self.bump();
        let name = self.peek();
        if name.kind != TokenKind::Identifier || !self.peek_at(1).is_punct(Punct::Assign) {
            return Err(
                self.unsupported_cxx(keyword.location, "using-declarations and using-directives")
            );
        }
        self.pos += 2;
        let TypeName {
            mut specs,
            mut declarator,
        } = self.type_name()?;
        self.expect_semicolon("after alias declaration")?;
        specs.storage = Some(StorageClass::Typedef);
        let alias = self.declared_name(Name(name.sym));
        declarator.name = Some((alias, name.location));
        self.declare_name(alias, true);
        Ok(Declaration {
            location: keyword.location,
            specs,
            declarators: vec![InitDeclarator {
                declarator,
                init: None,
                arguments: None,
            }],
        })
    }

    /// `static_assert ( constant-expression [, string-literal] ) ;`, the
    /// keyword next.
    pub(super) fn static_assert(&mut self) -> PResult<StaticAssert> {
        let location = self.bump().location;
        self.expect(Punct::LParen)?;
        let condition = self.conditional_expr()?;
        let mut message = None;
        if self.eat(Punct::Comma) {
            let t = self.peek();
            if t.kind != TokenKind::StringLiteral {
                return Err(self.error_here("string literal"));
            }
            let mut text = String::from(self.text(t));
            self.pos += 1;
            // Adjacent string literals concatenate.
            while self.peek().kind == TokenKind::StringLiteral {
                text.pop();
                text.push_str(&self.text(self.peek())[1..]);
                self.pos += 1;
            }
            message = Some(text);
        }
        self.expect(Punct::RParen)?;
        self.expect_semicolon("after 'static_assert'")?;
        Ok(StaticAssert {
            location,
            condition,
            message,
        })
    }

    pub(super) fn function_body(&mut self, declarator: &Declarator) -> PResult<Block> {
        // Parameters are in scope in the body.
        self.push_scope();
        if let Some(Derived::Function { params, .. }) = declarator.derived.first() {
            for p in params {
                if let Some((name, _)) = &p.declarator.name {
                    self.declare_name(*name, false);
                }
            }
        }
        self.function_depth += 1;
        let body = self.block();
        self.function_depth -= 1;
        self.pop_scope();
        body
    }

    /// After the first declarator: initialisers, more declarators, `;`.
    pub(super) fn rest_of_declaration(
        &mut self,
        specs: DeclSpecs,
        first: Declarator,
    ) -> PResult<Declaration> {
        let is_typedef = specs.storage == Some(StorageClass::Typedef);
        let location = specs.location;
        let mut declarators = Vec::new();
        let mut declarator = first;
        loop {
            if let Some((name, _)) = &declarator.name {
                self.declare_name(*name, is_typedef);
            }
            let mut arguments = None;
            let function = matches!(declarator.derived.first(), Some(Derived::Function { .. }));
            let init = if self.eat(Punct::Assign) {
                Some(self.initializer()?)
            } else if self.cxx && !function && self.at(Punct::LBrace) {
                // `T x{a, b}`: as `T x = {a, b}`, which picks the same
                // constructor (`explicit` is not checked).
                Some(self.initializer()?)
            } else {
                if self.cxx && self.at(Punct::LParen) {
                    arguments = Some(self.constructor_arguments()?);
                }
                None
            };
            declarators.push(InitDeclarator {
                declarator,
                init,
                arguments,
            });
            if !self.eat(Punct::Comma) {
                break;
            }
            declarator = self.named_declarator()?;
            if !specs.is_kernel {
                if let Some((name, _)) = &mut declarator.name {
                    *name = self.declared_name(*name);
                }
            }
        }
        self.expect_semicolon("at end of declaration")?;
        Ok(Declaration {
            specs,
            declarators,
            location,
        })
    }

    pub(super) fn attributes(&mut self, out: &mut Vec<Attribute>) -> PResult<()> {
        while self.kw() == Kw::Attribute {
            if self.cxx && self.text(self.peek()) == "alignas" {
                let keyword = self.bump();
                self.expect(Punct::LParen)?;
                let alignment = self.assignment_expr()?;
                self.expect(Punct::RParen)?;
                out.push(Attribute {
                    name: Name(self.qualified_symbol("aligned")),
                    args: vec![Arc::new(alignment)],
                    location: keyword.location,
                });
                continue;
            }
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

    pub(super) fn decl_specs(&mut self) -> PResult<DeclSpecs> {
        let location = self.loc();
        let mut specs = DeclSpecs {
            storage: None,
            ty: TypeSpec::None,
            qualifiers: Qualifiers::default(),
            is_kernel: false,
            is_inline: false,
            constexpr: None,
            attributes: Vec::new(),
            access: None,
            location,
            type_location: location,
        };
        let mut words = ScalarWords::default();
        let mut has_words = false;
        let mut typename = false;
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
                Kw::Constexpr => {
                    specs.constexpr = Some(t.location);
                    self.pos += 1;
                }
                Kw::Access => {
                    let access = match self.spellings[t.sym as usize].trim_start_matches('_') {
                        "write_only" => ImageAccess::WriteOnly,
                        "read_write" => ImageAccess::ReadWrite,
                        _ => ImageAccess::ReadOnly,
                    };
                    if specs.access.is_some() {
                        self.diags.error(t.location, "multiple access qualifiers");
                    }
                    specs.access = Some((access, t.location));
                    self.pos += 1;
                }
                Kw::Attribute => self.attributes(&mut specs.attributes)?,
                Kw::Scalar(word) => {
                    add_scalar_word(&mut words, word);
                    if !has_words {
                        specs.type_location = t.location;
                    }
                    has_words = true;
                    self.pos += 1;
                }
                // `typename T::type`: what follows names a member type.
                Kw::Typename if matches!(specs.ty, TypeSpec::None) && !has_words => {
                    typename = true;
                    self.pos += 1;
                }
                Kw::Decltype if matches!(specs.ty, TypeSpec::None) && !has_words => {
                    specs.type_location = t.location;
                    self.pos += 1;
                    self.expect(Punct::LParen)?;
                    let e = self.expr()?;
                    self.expect(Punct::RParen)?;
                    specs.ty = TypeSpec::Decltype(Arc::new(e));
                }
                Kw::Auto if matches!(specs.ty, TypeSpec::None) && !has_words => {
                    specs.ty = TypeSpec::Auto;
                    specs.type_location = t.location;
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
                    } else if self.cxx && self.at_template_id() {
                        let (name, args) = self.template_arguments()?;
                        specs.ty = TypeSpec::TemplateId(name, Arc::new(args));
                        specs.ty = self.member_type_after(specs.ty, typename)?;
                    } else if self.is_typedef_at(0) {
                        self.check_unambiguous(t);
                        specs.ty = TypeSpec::Typedef(Name(self.resolved(t)));
                        self.pos += 1;
                        specs.ty = self.member_type_after(specs.ty, typename)?;
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
            Some(Name(self.tag_name(t)))
        } else {
            None
        };
        if let (true, Some(tag)) = (self.cxx, tag) {
            // In C++ a class's name is a type name, within its body too.
            self.declare_name(tag, true);
        }
        if let Some(tag) = tag {
            if let Some(values) = self.class_template_params.take() {
                self.template_names.entry(tag.0).or_insert(values);
            }
        }
        // `template <...> struct S<args>`: a specialization of template S.
        let pattern = match tag {
            Some(tag)
                if self.cxx && self.at(Punct::Lt) && self.template_names.contains_key(&tag.0) =>
            {
                self.pos += 1;
                Some(self.template_argument_list(tag)?)
            }
            _ => None,
        };
        let mut methods = Vec::new();
        let mut implicit_constructor = false;
        let mut method_templates = Vec::new();
        let mut statics = Vec::new();
        let mut types = Vec::new();
        let bases = if self.cxx && self.at(Punct::Colon) && !self.at_scope_operator() {
            self.base_specifiers()?
        } else {
            Vec::new()
        };
        let fields = if self.eat(Punct::LBrace) {
            let mut fields = Vec::new();
            if let Some(tag) = tag {
                self.note_class_members(tag.0);
            }
            self.record_depth += 1;
            let body = self.with_class_members(tag, |p| {
                while !p.at(Punct::RBrace) && p.peek().kind != TokenKind::Eof {
                    if p.cxx && p.access_specifier() {
                        continue;
                    }
                    match p.member_decl(tag) {
                        Ok(Member::Field(f)) => fields.push(f),
                        // `= default` copy constructors, assignments and
                        // destructors are the implicit ones clvulkan makes.
                        Ok(Member::Method(m)) if m.defaulted && !m.is_default_constructor() => {}
                        // A deleted member function is never the one a
                        // valid program calls: left out, it changes no
                        // call that C++ accepts.
                        Ok(Member::Method(m)) if m.deleted => {}
                        Ok(Member::Method(m)) => methods.push(m),
                        Ok(Member::MethodTemplate(t)) => method_templates.push(Arc::new(t)),
                        Ok(Member::Friend) => {}
                        Ok(Member::Static(d)) => statics.push(d),
                        Ok(Member::Type(d)) => types.push(d),
                        Err(Reported) => p.recover(),
                    }
                }
                p.expect(Punct::RBrace)
            });
            self.record_depth -= 1;
            body?;
            // Attributes after the closing brace bind to the type too.
            self.attributes(&mut attributes)?;
            let defaults = fields.iter().any(|f: &FieldDecl| !f.defaults.is_empty());
            if let (true, false, Some(tag)) = (defaults, methods.iter().any(|m| m.constructor), tag)
            {
                // The default constructor C++ declares implicitly, which
                // runs the default member initializers.
                methods.push(self.implicit_default_constructor(tag, tag_location));
                implicit_constructor = true;
            }
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
            methods,
            implicit_constructor,
            method_templates,
            bases,
            statics,
            types,
            pattern,
            attributes,
            location: kw.location,
        })
    }

    /// A class's base specifiers, `: public B, C`, the `:` next.
    fn base_specifiers(&mut self) -> PResult<Vec<TypeName>> {
        self.pos += 1;
        let mut bases = Vec::new();
        loop {
            let specifier = match self.kw() {
                Kw::AccessSpecifier => true,
                Kw::AddressSpace(AddressSpace::Private) => self.text(self.peek()) == "private",
                _ => false,
            };
            if specifier {
                self.pos += 1;
            }
            bases.push(self.type_name()?);
            if !self.eat(Punct::Comma) {
                return Ok(bases);
            }
        }
    }

    /// Skips `public:`, `protected:` or `private:` in a class body, which
    /// C++ for OpenCL takes from C++; says whether there was one.
    fn access_specifier(&mut self) -> bool {
        let specifier = match self.kw() {
            Kw::AccessSpecifier => true,
            Kw::AddressSpace(AddressSpace::Private) => self.text(self.peek()) == "private",
            _ => false,
        };
        if specifier && self.peek_at(1).is_punct(Punct::Colon) {
            self.pos += 2;
            return true;
        }
        false
    }

    /// `::name` after class type `class` in a type: the member type
    /// `name` of it, when the class is known to have one of that name or
    /// `typename` says it is one; else `class` as it is.
    fn member_type_after(&mut self, class: TypeSpec, typename: bool) -> PResult<TypeSpec> {
        if !self.cxx || !self.at_scope_operator() || self.peek_at(2).kind != TokenKind::Identifier {
            return Ok(class);
        }
        let member = self.peek_at(2);
        let known = match &class {
            TypeSpec::Typedef(c) | TypeSpec::TemplateId(c, _) => self
                .member_types
                .get(&c.0)
                .is_some_and(|names| names.contains(&member.sym)),
            _ => false,
        };
        if !known && !typename {
            return Ok(class);
        }
        self.pos += 3;
        Ok(TypeSpec::MemberType(Arc::new(class), Name(member.sym)))
    }

    /// Notes the names `d` declares as member types of class `tag`, which
    /// `S::name` then names.
    fn note_member_types(&mut self, tag: Option<Name>, d: &Declaration) {
        let Some(tag) = tag else {
            return;
        };
        let names = d
            .declarators
            .iter()
            .filter_map(|i| i.declarator.name.map(|(n, _)| n.0));
        self.member_types.entry(tag.0).or_default().extend(names);
    }

    /// A member of the body of record `tag`: fields, or in C++ a member
    /// function.
    fn member_decl(&mut self, tag: Option<Name>) -> PResult<Member> {
        let location = self.loc();
        // `explicit operator bool()`: conversions clvulkan makes only
        // where they are written anyway, or implicitly where C++ would
        // not (`explicit` is not checked).
        let explicit = usize::from(self.cxx && self.kw() == Kw::Explicit);
        if self.cxx {
            // `explicit`, `constexpr` and `inline` change nothing clvulkan
            // does with a constructor.
            let mut words = 0;
            while matches!(self.kw_at(words), Kw::Explicit | Kw::Constexpr | Kw::Inline) {
                words += 1;
            }
            let t = self.peek_at(words);
            let names_class =
                tag.is_some_and(|tag| t.kind == TokenKind::Identifier && self.names_class(tag, t));
            if names_class && self.peek_at(words + 1).is_punct(Punct::LParen) {
                self.pos += words;
                let mut constructor = self.constructor_decl(location)?;
                // Named by the class's (qualified) name, as the class is.
                if let (Some(tag), Some((name, _))) = (tag, &mut constructor.declarator.name) {
                    *name = tag;
                }
                return Ok(Member::Method(constructor));
            }
            if let (true, Some(tag)) = (t.is_punct(Punct::Tilde), tag) {
                return self.destructor_decl(tag, location).map(Member::Method);
            }
        }
        if self.cxx && self.kw_at(explicit) == Kw::Operator && self.starts_type(explicit + 1) {
            self.pos += explicit;
            return self.conversion_function(location).map(Member::Method);
        }
        if self.cxx && self.kw() == Kw::Template && self.peek_at(1).is_punct(Punct::Lt) {
            return self.member_template(tag);
        }
        if self.cxx && self.kw() == Kw::Friend {
            return self.friend_decl();
        }
        if self.cxx && self.kw() == Kw::Using {
            let alias = self.alias_declaration()?;
            self.note_member_types(tag, &alias);
            return Ok(Member::Type(alias));
        }
        let mutable = self.cxx && self.eat_kw(Kw::Mutable);
        let specs = self.decl_specs()?;
        let mut declarators = Vec::new();
        let mut defaults = Vec::new();
        if self.cxx && specs.storage == Some(StorageClass::Typedef) && !self.at(Punct::Semicolon) {
            let declarator = self.named_declarator()?;
            let typedef = self.rest_of_declaration(specs, declarator)?;
            self.note_member_types(tag, &typedef);
            return Ok(Member::Type(typedef));
        }
        if self.cxx && specs.storage == Some(StorageClass::Static) && !self.at(Punct::Semicolon) {
            let declarator = self.declarator()?;
            if matches!(declarator.derived.first(), Some(Derived::Function { .. })) {
                return self
                    .method_decl(specs, declarator, location)
                    .map(Member::Method);
            }
            // A static data member: a variable of the class's scope.
            return self
                .rest_of_declaration(specs, declarator)
                .map(Member::Static);
        }
        if !self.at(Punct::Semicolon) {
            loop {
                let d = if self.at(Punct::Colon) {
                    Declarator::default()
                } else {
                    self.declarator()?
                };
                if self.cxx && matches!(d.derived.first(), Some(Derived::Function { .. })) {
                    if declarators.is_empty() {
                        return self.method_decl(specs, d, location).map(Member::Method);
                    }
                    let at = d.name.map_or(location, |(_, at)| at);
                    return Err(
                        self.unsupported_cxx(at, "member functions declared together with fields")
                    );
                }
                let width = if self.eat(Punct::Colon) {
                    Some(self.conditional_expr()?)
                } else {
                    None
                };
                if self.cxx && (self.at(Punct::Assign) || self.at(Punct::LBrace)) {
                    defaults.push(self.default_member_initializer(&d, location)?);
                }
                declarators.push((d, width));
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
        }
        self.expect_semicolon("at end of declaration list")?;
        Ok(Member::Field(FieldDecl {
            specs,
            declarators,
            location,
            mutable,
            defaults,
        }))
    }

    /// A default member initializer of the field `declarator` declares,
    /// `= value` or `{args}`, next.
    fn default_member_initializer(
        &mut self,
        declarator: &Declarator,
        location: Location,
    ) -> PResult<MemberInit> {
        let (name, at) = declarator.name.unwrap_or((Name(0), location));
        let args = if self.eat(Punct::Assign) && !self.at(Punct::LBrace) {
            vec![self.assignment_expr()?]
        } else {
            self.expect(Punct::LBrace)?;
            let mut args = Vec::new();
            while !self.at(Punct::RBrace) {
                args.push(self.argument()?);
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            self.expect(Punct::RBrace)?;
            args
        };
        Ok(MemberInit {
            name,
            location: at,
            args,
        })
    }

    /// Whether `S::S(` comes next: a constructor defined outside its
    /// class, which has no declaration specifiers.
    fn at_constructor_definition(&self) -> bool {
        // `S::~S(`: a destructor, which has none either.
        let tilde = usize::from(self.peek_at(3).is_punct(Punct::Tilde));
        let (class, member) = (self.peek(), self.peek_at(3 + tilde));
        class.kind == TokenKind::Identifier
            && self.scope_operator_at(1)
            && member.kind == TokenKind::Identifier
            && self.names_class(Name(self.resolved(class)), member)
            && self.peek_at(4 + tilde).is_punct(Punct::LParen)
    }

    /// The name of class `class`'s destructor: a symbol no token spells,
    /// `~` and the class's name.
    pub(super) fn destructor_name(&mut self, class: Name) -> Name {
        let text = format!("~{}", self.spellings.get(class.0));
        Name(self.qualified_symbol(&text))
    }

    /// `operator T() const { ... }` in a class body, the `operator` next:
    /// a conversion function, named `operator T` by a symbol no token
    /// spells, returning `T`.
    fn conversion_function(&mut self, location: Location) -> PResult<MethodDecl> {
        let keyword = self.bump();
        let first = self.pos;
        let specs = self.decl_specs()?;
        let mut derived = Vec::new();
        while self.eat(Punct::Star) {
            derived.push(Derived::Pointer(Qualifiers::default()));
        }
        let spelled: Vec<String> = (first..self.pos)
            .map(|i| self.text(self.tokens[i]).to_owned())
            .collect();
        let name = Name(self.qualified_symbol(&format!("operator {}", spelled.join(" "))));
        self.expect(Punct::LParen)?;
        self.expect(Punct::RParen)?;
        derived.insert(
            0,
            Derived::Function {
                params: Vec::new(),
                variadic: false,
            },
        );
        let declarator = Declarator {
            name: Some((name, keyword.location)),
            derived,
            start: keyword.location.offset,
            end: keyword.end(),
            ..Declarator::default()
        };
        self.method_decl(specs, declarator, location)
    }

    /// `~S();` or `~S() { ... }` in the body of class `tag`, the `~` next.
    fn destructor_decl(&mut self, tag: Name, location: Location) -> PResult<MethodDecl> {
        self.pos += 1;
        let t = self.peek();
        if t.kind != TokenKind::Identifier || !self.names_class(tag, t) {
            return Err(self.error_here("the class's name after '~'"));
        }
        self.pos += 1;
        self.expect(Punct::LParen)?;
        if self.kw() == Kw::Scalar(super::keywords::ScalarWord::Void) {
            self.pos += 1;
        }
        self.expect(Punct::RParen)?;
        let declarator = Declarator {
            name: Some((self.destructor_name(tag), t.location)),
            derived: vec![Derived::Function {
                params: Vec::new(),
                variadic: false,
            }],
            start: t.location.offset,
            end: t.end(),
            ..Declarator::default()
        };
        self.method_decl(Self::constructor_specs(location), declarator, location)
    }

    /// The declaration specifiers a constructor has: it returns nothing.
    pub(super) fn constructor_specs(location: Location) -> DeclSpecs {
        DeclSpecs {
            storage: None,
            ty: TypeSpec::Scalar(ScalarWords {
                void: true,
                ..ScalarWords::default()
            }),
            type_location: location,
            qualifiers: Qualifiers::default(),
            is_kernel: false,
            is_inline: false,
            constexpr: None,
            attributes: Vec::new(),
            access: None,
            location,
        }
    }

    /// `S() {}` for class `tag`.
    fn implicit_default_constructor(&self, tag: Name, location: Location) -> MethodDecl {
        let declarator = Declarator {
            name: Some((tag, location)),
            derived: vec![Derived::Function {
                params: Vec::new(),
                variadic: false,
            }],
            start: location.offset,
            end: location.offset,
            ..Declarator::default()
        };
        MethodDecl {
            specs: Self::constructor_specs(location),
            declarator,
            this_qualifiers: Qualifiers::default(),
            body: Some(Block {
                items: Vec::new(),
                location,
            }),
            location,
            constructor: true,
            member_inits: Vec::new(),
            defaulted: true,
            deleted: false,
        }
    }

    /// A constructor in a class body, `[explicit] S(params) [: inits]
    /// { body }` or `;`.
    fn constructor_decl(&mut self, location: Location) -> PResult<MethodDecl> {
        let declarator = self.declarator()?;
        if !matches!(declarator.derived.first(), Some(Derived::Function { .. })) {
            return Err(self.error_here("a constructor's parameter list"));
        }
        let member_inits = self.member_initializers()?;
        let defaulted = self.defaulted()?;
        let deleted = self.deleted()?;
        let body = if defaulted {
            Some(Block {
                items: Vec::new(),
                location,
            })
        } else if self.at(Punct::LBrace) {
            Some(self.function_body(&declarator)?)
        } else if deleted {
            None
        } else {
            self.expect_semicolon("after constructor declaration")?;
            None
        };
        Ok(MethodDecl {
            specs: Self::constructor_specs(location),
            declarator,
            this_qualifiers: Qualifiers::default(),
            body,
            location,
            constructor: true,
            member_inits,
            defaulted,
            deleted,
        })
    }

    /// `: member(args), member{args}` before a constructor's body, if
    /// there.
    fn member_initializers(&mut self) -> PResult<Vec<MemberInit>> {
        let mut inits = Vec::new();
        if !self.at(Punct::Colon) || self.at_scope_operator() {
            return Ok(inits);
        }
        self.pos += 1;
        loop {
            let t = self.bump();
            if t.kind != TokenKind::Identifier {
                self.pos -= 1;
                return Err(self.error_here("a member name"));
            }
            let braced = self.at(Punct::LBrace);
            let (open, close) = if braced {
                (Punct::LBrace, Punct::RBrace)
            } else {
                (Punct::LParen, Punct::RParen)
            };
            self.expect(open)?;
            let mut args = Vec::new();
            while !self.at(close) {
                args.push(self.assignment_expr()?);
                if !self.eat(Punct::Comma) {
                    break;
                }
            }
            self.expect(close)?;
            inits.push(MemberInit {
                name: Name(t.sym),
                location: t.location,
                args,
            });
            if !self.eat(Punct::Comma) {
                return Ok(inits);
            }
        }
    }

    /// The rest of a member function after its parameter list: the
    /// qualifiers of `this`, then a body or a `;`.
    fn method_decl(
        &mut self,
        specs: DeclSpecs,
        declarator: Declarator,
        location: Location,
    ) -> PResult<MethodDecl> {
        let mut this_qualifiers = Qualifiers::default();
        while add_qualifier(&mut this_qualifiers, self.kw()) {
            self.pos += 1;
        }
        self.exception_specification()?;
        let defaulted = self.defaulted()?;
        let deleted = self.deleted()?;
        if self.at(Punct::Amp) || self.at(Punct::AmpAmp) || self.at(Punct::Assign) {
            let at = self.loc();
            return Err(self.unsupported_cxx(at, "ref-qualified and deleted member functions"));
        }
        let body = if defaulted {
            Some(Block {
                items: Vec::new(),
                location,
            })
        } else if self.at(Punct::LBrace) {
            Some(self.function_body(&declarator)?)
        } else if deleted {
            None
        } else {
            self.expect_semicolon("after member function declaration")?;
            None
        };
        Ok(MethodDecl {
            specs,
            declarator,
            this_qualifiers,
            body,
            location,
            constructor: false,
            member_inits: Vec::new(),
            defaulted,
            deleted,
        })
    }

    /// `friend ...;` in a class body, the keyword next. A friend class
    /// changes nothing (access is not checked); a friend function is a
    /// function of the enclosing namespace, declared or defined after the
    /// class (C++ finds one defined in the class only by its arguments;
    /// clvulkan also by its name).
    fn friend_decl(&mut self) -> PResult<Member> {
        let location = self.bump().location;
        if matches!(self.kw(), Kw::Struct | Kw::Union)
            || (self.starts_type(0) && self.peek_at(1).is_punct(Punct::Semicolon))
        {
            while !self.eat(Punct::Semicolon) {
                if self.peek().kind == TokenKind::Eof {
                    return Err(self.error_here("';'"));
                }
                self.pos += 1;
            }
            return Ok(Member::Friend);
        }
        if self.class_template_params.is_some() || self.function_depth > 0 {
            return Err(self.unsupported_cxx(
                location,
                "friend functions of class templates and local classes",
            ));
        }
        let specs = self.decl_specs()?;
        let mut declarator = self.named_declarator()?;
        if !matches!(declarator.derived.first(), Some(Derived::Function { .. })) {
            return Err(self.error_here("a friend function's parameter list"));
        }
        if let Some((name, _)) = &mut declarator.name {
            *name = self.declared_name(*name);
        }
        let item = if self.at(Punct::LBrace) {
            let body = self.function_body(&declarator)?;
            ExternalDecl::Function(FunctionDef {
                specs,
                declarator,
                this_qualifiers: Qualifiers::default(),
                member_inits: Vec::new(),
                body,
            })
        } else {
            self.expect_semicolon("after friend declaration")?;
            ExternalDecl::Declaration(Declaration {
                location,
                specs,
                declarators: vec![InitDeclarator {
                    declarator,
                    init: None,
                    arguments: None,
                }],
            })
        };
        self.hoisted.push(item);
        Ok(Member::Friend)
    }

    /// `template <params>` and a member function of class `tag`, the
    /// `template` next.
    fn member_template(&mut self, tag: Option<Name>) -> PResult<Member> {
        let location = self.bump().location;
        self.pos += 1;
        let mut params = Vec::new();
        self.push_scope();
        let parsed = self.template_parameters(&mut params);
        self.pop_scope();
        parsed?;
        match self.with_template_parameters(&params, |p| p.member_decl(tag))? {
            Member::Method(method) if !method.constructor => {
                if let Some((name, _)) = method.declarator.name {
                    let values = params.iter().map(|p| p.value_type.is_some()).collect();
                    self.member_template_names.insert(name.0, values);
                }
                Ok(Member::MethodTemplate(MethodTemplate {
                    params,
                    method,
                    location,
                }))
            }
            _ => {
                Err(self.unsupported_cxx(location, "member templates other than member functions"))
            }
        }
    }

    /// `= default;` after a member function's declarator, eaten if there.
    fn defaulted(&mut self) -> PResult<bool> {
        self.defined_as(Kw::Default)
    }

    /// `= delete;` after a member function's declarator, eaten if there.
    fn deleted(&mut self) -> PResult<bool> {
        self.defined_as(Kw::Delete)
    }

    /// `= word;`, eaten if there.
    fn defined_as(&mut self, word: Kw) -> PResult<bool> {
        if !(self.at(Punct::Assign) && self.kw_at(1) == word) {
            return Ok(false);
        }
        self.pos += 2;
        self.expect_semicolon("after defaulted or deleted function declaration")?;
        Ok(true)
    }

    fn enum_spec(&mut self) -> PResult<EnumSpec> {
        let kw = self.bump();
        // `enum class` and `enum struct` are scoped.
        let scoped = self.cxx && self.kw() == Kw::Struct;
        if scoped {
            self.pos += 1;
        }
        let mut ignored = Vec::new();
        self.attributes(&mut ignored)?;
        let tag = if self.peek().kind == TokenKind::Identifier {
            let t = self.bump();
            Some(Name(self.tag_name(t)))
        } else {
            None
        };
        if let (true, Some(tag)) = (self.cxx, tag) {
            self.declare_name(tag, true);
        }
        let underlying = if self.cxx && self.at(Punct::Colon) && !self.at_scope_operator() {
            self.pos += 1;
            Some(TypeName {
                specs: self.decl_specs()?,
                declarator: Declarator::default(),
            })
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
                // A scoped enum's enumerators are named through it.
                let name = if scoped {
                    Name(t.sym)
                } else {
                    self.declared_name(Name(t.sym))
                };
                self.declare_name(name, false);
                let value = if self.eat(Punct::Assign) {
                    Some(self.conditional_expr()?)
                } else {
                    None
                };
                list.push((name, value, t.location));
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
            scoped,
            underlying,
        })
    }
}

#[cfg(test)]
mod tests {
    use std::rc::Rc;

    use crate::ast::{ExternalDecl, StmtKind, TranslationUnit};
    use crate::diagnostic::{Diagnostics, FileId, Location};
    use crate::parse::parse;
    use crate::token::{Token, TokenKind};

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
