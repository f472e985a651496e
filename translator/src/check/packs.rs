//! C++ parameter packs of templates (function, member and class ones):
//! `typename... Ts`, the function parameter pack `Ts... args`, and what
//! expands them, checked once per element rather than rewritten.
//!
//! A pack of template arguments is a [`TemplateArgument::Pack`], an
//! interned list, so an instance's key stays a flat, hashable list. In an
//! instance a pack's name is bound to [`Symbol::Pack`], its elements'
//! symbols (a type each, or a parameter's local each); an expansion's
//! pattern is checked once per element with each pack it names bound to
//! that element: `f(args...)` (each argument its own [`ast::ExprKind::
//! PackElement`], so calls take them as written arguments), `(args +
//! ...)` and the other fold expressions, `sizeof...(args)`, `g<Ts...>`,
//! braced lists, and a parameter list with `Ts... args` in it. Class
//! templates match and deduce packs in `specializations` and
//! `templates`.

use super::templates::TemplateArgument;
use super::*;
use crate::int_constant::IntConstant;
use std::sync::Arc;

/// A pack of template arguments, by its place in [`PackTable`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) struct PackId(u32);

/// The element lists of the template argument packs made so far, each
/// once.
#[derive(Default)]
pub(super) struct PackTable {
    lists: Vec<Vec<TemplateArgument>>,
    ids: HashMap<Vec<TemplateArgument>, PackId>,
}

impl PackTable {
    pub(super) fn intern(&mut self, elements: Vec<TemplateArgument>) -> PackId {
        if let Some(&id) = self.ids.get(&elements) {
            return id;
        }
        let id = PackId(self.lists.len() as u32);
        self.lists.push(elements.clone());
        self.ids.insert(elements, id);
        id
    }

    pub(super) fn get(&self, id: PackId) -> &[TemplateArgument] {
        &self.lists[id.0 as usize]
    }
}

/// A fold expression's operands: its pattern, with the packs it names
/// and their length, and its initial value, after the elements
/// (`from_right`) or before them.
struct FoldShape<'f> {
    pattern: &'f ast::Expr,
    init: Option<&'f ast::Expr>,
    from_right: bool,
    packs: BoundPacks,
    length: usize,
}

/// The packs an expansion's pattern names, each with its elements'
/// symbols.
pub(super) type BoundPacks = Vec<(Name, Rc<[Symbol]>)>;

/// Where a parameter or template argument stands in its expansion: the
/// packs it names and the element, or `None` for one that is no
/// expansion.
pub(super) type InPack = Option<(Rc<BoundPacks>, usize)>;

/// An item of an initializer list.
type ListItem = (Vec<ast::Designator>, ast::Initializer);

impl Checker<'_> {
    /// The bound packs among `names`.
    fn packs_among(&self, names: &[Name]) -> BoundPacks {
        let mut packs: BoundPacks = Vec::new();
        for &name in names {
            if let Some(Symbol::Pack(elements)) = self.scopes.lookup(name) {
                if !packs.iter().any(|(named, _)| *named == name) {
                    packs.push((name, Rc::clone(elements)));
                }
            }
        }
        packs
    }

    /// The packs `names` name and their common length; `None` after
    /// clang's error where there is none or the lengths differ.
    fn expansion_of(&mut self, names: &[Name], span: Span) -> Option<(BoundPacks, usize)> {
        let packs = self.packs_among(names);
        let Some((first, elements)) = packs.first() else {
            self.error(
                span,
                "pack expansion does not contain any unexpanded parameter packs",
            );
            return None;
        };
        let length = elements.len();
        if let Some((other, them)) = packs.iter().find(|(_, e)| e.len() != length) {
            let (a, b) = (self.spelling(*first), self.spelling(*other));
            self.error(
                span,
                format!(
                    "pack expansion contains parameter packs '{a}' and '{b}' that have different lengths ({length} vs. {})",
                    them.len()
                ),
            );
            return None;
        }
        Some((packs, length))
    }

    /// The packs expression pattern `e` names, and their length; an
    /// error at `span` where it names none.
    pub(super) fn pattern_packs(
        &mut self,
        e: &ast::Expr,
        span: Span,
    ) -> Option<(BoundPacks, usize)> {
        let mut names = Vec::new();
        names_in_expr(e, &mut names);
        self.expansion_of(&names, span)
    }

    /// The packs the type of parameter or template argument `specs`
    /// names, and their length.
    pub(super) fn type_packs(
        &mut self,
        specs: &ast::DeclSpecs,
        at: Location,
    ) -> Option<(BoundPacks, usize)> {
        let mut names = Vec::new();
        names_in_type_spec(&specs.ty, &mut names);
        self.expansion_of(&names, Span::at(at))
    }

    /// What `f` makes with each of `packs` naming its element `index`.
    pub(super) fn with_pack_element<T>(
        &mut self,
        packs: &BoundPacks,
        index: usize,
        f: impl FnOnce(&mut Self) -> T,
    ) -> T {
        self.scopes.push();
        for (name, elements) in packs {
            self.declare(*name, elements[index].clone());
        }
        let value = f(self);
        self.scopes.pop();
        value
    }

    /// Element `index` of expansion pattern `pattern`.
    pub(super) fn pack_element(&mut self, pattern: &ast::Expr, index: usize, span: Span) -> Expr {
        match self.pattern_packs(pattern, span) {
            Some((packs, length)) if index < length => {
                self.with_pack_element(&packs, index, |c| c.expr(pattern))
            }
            _ => Expr::new(H::Int(0), Type::Error, span),
        }
    }

    /// The elements of pack expansion `e`, `pattern...`; `None` after
    /// an error.
    fn expansion_elements(
        &mut self,
        e: &ast::Expr,
        pattern: &Arc<ast::Expr>,
    ) -> Option<Vec<ast::Expr>> {
        let (_, length) = self.pattern_packs(pattern, e.span())?;
        let element = |i: usize| ast::Expr {
            kind: ast::ExprKind::PackElement(Arc::clone(pattern), i as u32),
            location: e.location,
            start: e.start,
            end: e.end,
        };
        Some((0..length).map(element).collect())
    }

    /// `args` with each pack expansion among them made its elements, or
    /// `Ok(None)` where there is none; `Err` after an error.
    pub(super) fn expanded_argument_list(
        &mut self,
        args: &[&ast::Expr],
    ) -> Result<Option<Vec<ast::Expr>>, ()> {
        if !args.iter().any(|a| is_expansion(a)) {
            return Ok(None);
        }
        let mut expanded = Vec::with_capacity(args.len());
        for &a in args {
            match &a.kind {
                ast::ExprKind::PackExpansion(pattern) => {
                    expanded.extend(self.expansion_elements(a, pattern).ok_or(())?)
                }
                _ => expanded.push(a.clone()),
            }
        }
        Ok(Some(expanded))
    }

    /// Initializer list items `items` with each pack expansion among them
    /// (`{xs...}`) made its elements, or `Ok(None)` where there is none;
    /// `Err` after an error.
    pub(super) fn expanded_list(
        &mut self,
        items: &[ListItem],
    ) -> Result<Option<Vec<ListItem>>, ()> {
        let expansion = |item: &ListItem| match &item.1 {
            ast::Initializer::Expr(e) => is_expansion(e),
            ast::Initializer::List(..) => false,
        };
        if !items.iter().any(expansion) {
            return Ok(None);
        }
        let mut expanded = Vec::with_capacity(items.len());
        for item in items {
            match item {
                (designators, ast::Initializer::Expr(e)) if designators.is_empty() => {
                    let ast::ExprKind::PackExpansion(pattern) = &e.kind else {
                        expanded.push(item.clone());
                        continue;
                    };
                    let elements = self.expansion_elements(e, pattern).ok_or(())?;
                    expanded.extend(
                        elements
                            .into_iter()
                            .map(|e| (Vec::new(), ast::Initializer::Expr(e))),
                    );
                }
                _ => expanded.push(item.clone()),
            }
        }
        Ok(Some(expanded))
    }

    /// `sizeof...(name)`.
    pub(super) fn sizeof_pack(&mut self, name: Name, at: Location, span: Span) -> Expr {
        let size = Type::Scalar(self.size_type(false));
        match self.scopes.lookup(name) {
            Some(Symbol::Pack(elements)) => {
                let length = elements.len() as u64;
                self.int_const(length, size, span)
            }
            _ => {
                let spelling = self.spelling(name);
                self.error(
                    at,
                    format!("'{spelling}' does not refer to the name of a parameter pack"),
                );
                Expr::new(H::Int(0), Type::Error, span)
            }
        }
    }

    /// A fold expression: its pattern's elements joined by its operator,
    /// from the right (`(e op ...)`: `e0 op (e1 op e2)`) or from the left
    /// (`(... op e)`), after or before the initial value if there is one.
    pub(super) fn fold(&mut self, fold: &ast::Fold, span: Span) -> Expr {
        let error = || Expr::new(H::Int(0), Type::Error, span);
        let Some(FoldShape {
            pattern,
            init,
            from_right,
            packs,
            length,
        }) = self.fold_shape(fold)
        else {
            return error();
        };
        let mut elements: Vec<Expr> = (0..length)
            .map(|i| self.with_pack_element(&packs, i, |c| c.expr(pattern)))
            .collect();
        if elements.iter().any(|e| e.ty.is_error()) {
            return error();
        }
        if let Some(init) = init {
            let init = self.expr(init);
            if from_right {
                elements.push(init);
            } else {
                elements.insert(0, init);
            }
        }
        if from_right {
            let Some(mut folded) = elements.pop() else {
                return self.empty_fold(fold.op, span);
            };
            while let Some(e) = elements.pop() {
                folded = self.fold_step(fold.op, e, folded, span);
            }
            folded
        } else {
            let mut elements = elements.into_iter();
            let Some(first) = elements.next() else {
                return self.empty_fold(fold.op, span);
            };
            elements.fold(first, |folded, e| self.fold_step(fold.op, folded, e, span))
        }
    }

    /// Which of fold expression `fold`'s operands is the pattern, the
    /// one that names a pack; `None` after an error.
    fn fold_shape<'f>(&mut self, fold: &'f ast::Fold) -> Option<FoldShape<'f>> {
        let names_pack = |c: &Self, e: &ast::Expr| {
            let mut names = Vec::new();
            names_in_expr(e, &mut names);
            !c.packs_among(&names).is_empty()
        };
        let (pattern, init, from_right) = match (&fold.left, &fold.right) {
            (Some(left), None) => (left, None, true),
            (None, Some(right)) => (right, None, false),
            (Some(left), Some(right)) if names_pack(self, left) => (left, Some(right), true),
            (Some(left), Some(right)) => (right, Some(left), false),
            (None, None) => return None,
        };
        let (packs, length) = self.pattern_packs(pattern, pattern.span())?;
        Some(FoldShape {
            pattern,
            init,
            from_right,
            packs,
            length,
        })
    }

    /// A fold expression's value as an integer constant expression
    /// (`static_assert((sizeof(Ts) + ...) == 8)`).
    pub(super) fn fold_constant(&mut self, fold: &ast::Fold) -> Option<IntConstant> {
        let shape = self.fold_shape(fold)?;
        let mut values = Vec::with_capacity(shape.length + 1);
        for i in 0..shape.length {
            values.push(self.with_pack_element(&shape.packs, i, |c| c.constant(shape.pattern))?);
        }
        if let Some(init) = shape.init {
            let init = self.constant(init)?;
            if shape.from_right {
                values.push(init);
            } else {
                values.insert(0, init);
            }
        }
        let step = |a: IntConstant, b: IntConstant| match fold.op {
            ast::FoldOp::Binary(op) => IntConstant::binary(op, a, b),
            ast::FoldOp::Comma => Some(b),
        };
        if shape.from_right {
            let mut folded = values.pop()?;
            while let Some(v) = values.pop() {
                folded = step(v, folded)?;
            }
            Some(folded)
        } else {
            let mut values = values.into_iter();
            let first = values.next()?;
            values.try_fold(first, step)
        }
    }

    /// `a op b` for a fold expression.
    fn fold_step(&mut self, op: ast::FoldOp, a: Expr, b: Expr, span: Span) -> Expr {
        match op {
            ast::FoldOp::Binary(op) => {
                if self.overloads_operator(&[&a, &b]) {
                    return self.overloaded_operator(op.spelling(), vec![a, b], span);
                }
                let (a, b) = (self.decay(a), self.decay(b));
                self.binary(op, a, b, span)
            }
            ast::FoldOp::Comma => {
                let b = self.decay(b);
                let ty = b.ty;
                Expr::new(H::Comma(Box::new(a), Box::new(b)), ty, span)
            }
        }
    }

    /// A fold of an empty pack without an initial value: what C++ gives
    /// `&&`, `||` and `,`; an error for the other operators.
    fn empty_fold(&mut self, op: ast::FoldOp, span: Span) -> Expr {
        match op {
            ast::FoldOp::Binary(BinaryOp::LogicalAnd) => self.int_const(1, self.truth_type(), span),
            ast::FoldOp::Binary(BinaryOp::LogicalOr) => self.int_const(0, self.truth_type(), span),
            ast::FoldOp::Comma => {
                let zero = self.int_const(0, Type::INT, span);
                self.cast(zero, Type::Void, span)
            }
            ast::FoldOp::Binary(op) => {
                self.error(
                    span,
                    format!(
                        "unary fold expression has empty expansion for operator '{}' with no fallback value",
                        op.spelling()
                    ),
                );
                Expr::new(H::Int(0), Type::Error, span)
            }
        }
    }

    /// `Ts... args` among function parameters `params`: the parameters
    /// with each pack one per element, as (parameter, the packs its type
    /// names and the element); `None` after an error.
    pub(super) fn expanded_params<'p>(
        &mut self,
        params: &'p [ast::ParamDecl],
    ) -> Option<Vec<(&'p ast::ParamDecl, InPack)>> {
        let mut expanded = Vec::with_capacity(params.len());
        for (i, p) in params.iter().enumerate() {
            if !p.declarator.pack {
                expanded.push((p, None));
                continue;
            }
            if i + 1 != params.len() {
                let not_yet = crate::language::NOT_YET;
                self.error(
                    p.location,
                    format!("function parameter packs other than the last parameter are {not_yet}"),
                );
                return None;
            }
            let (packs, length) = self.type_packs(&p.specs, p.location)?;
            let packs = Rc::new(packs);
            expanded.extend((0..length).map(|e| (p, Some((Rc::clone(&packs), e)))));
        }
        Some(expanded)
    }

    /// What `f` makes of parameter `p` as [`Self::expanded_params`]
    /// listed it: with its packs bound to its element.
    pub(super) fn in_param_element<T>(
        &mut self,
        element: &InPack,
        f: impl FnOnce(&mut Self) -> T,
    ) -> T {
        match element {
            Some((packs, index)) => self.with_pack_element(packs, *index, f),
            None => f(self),
        }
    }

    /// The template arguments `written` names, each pack expansion
    /// among them (`Ts...`) as its elements; `None` after an error.
    pub(super) fn expanded_template_arguments<'a>(
        &mut self,
        written: &'a [ast::TemplateArg],
    ) -> Option<Vec<(&'a ast::TemplateArg, InPack)>> {
        let mut expanded = Vec::with_capacity(written.len());
        for arg in written {
            let packs = match arg {
                ast::TemplateArg::Type(t) if t.declarator.pack => {
                    self.type_packs(&t.specs, t.specs.type_location)?
                }
                ast::TemplateArg::Value(e) => match &e.kind {
                    ast::ExprKind::PackExpansion(pattern) => {
                        self.pattern_packs(pattern, e.span())?
                    }
                    _ => {
                        expanded.push((arg, None));
                        continue;
                    }
                },
                _ => {
                    expanded.push((arg, None));
                    continue;
                }
            };
            let (packs, length) = packs;
            let packs = Rc::new(packs);
            expanded.extend((0..length).map(|e| (arg, Some((Rc::clone(&packs), e)))));
        }
        Some(expanded)
    }

    /// `arguments` with each pack among them as its elements.
    pub(super) fn pack_elements_of(&self, arguments: &[TemplateArgument]) -> Vec<TemplateArgument> {
        (arguments.iter())
            .flat_map(|&a| match a {
                TemplateArgument::Pack(id) => self.packs.get(id).to_vec(),
                a => vec![a],
            })
            .collect()
    }

    /// The symbol a template argument pack's name stands for in an
    /// instance: its elements' symbols.
    pub(super) fn pack_symbol(&self, id: PackId) -> Symbol {
        let elements: Vec<Symbol> = self
            .packs
            .get(id)
            .iter()
            .map(|&argument| templates::argument_symbol(argument))
            .collect();
        Symbol::Pack(elements.into())
    }
}

fn is_expansion(e: &ast::Expr) -> bool {
    matches!(e.kind, ast::ExprKind::PackExpansion(_))
}

/// The names expression `e` mentions outside nested expansions and
/// lambdas (which expand or capture their own): the packs it may expand
/// are among them.
fn names_in_expr(e: &ast::Expr, names: &mut Vec<Name>) {
    use ast::ExprKind as A;
    crate::stack::guard(|| match &e.kind {
        A::Ident(name) => names.push(*name),
        A::SizeofPack(..)
        | A::IntLiteral(_)
        | A::FloatLiteral(_)
        | A::CharLiteral(_)
        | A::BoolLiteral(_)
        | A::Nullptr
        | A::This
        | A::StringLiteral(_)
        | A::Lambda(_)
        | A::PackExpansion(_)
        | A::PackElement(..) => {}
        A::TemplateId(_, args) => names_in_template_args(args, names),
        A::Qualified(_, args, _) => {
            if let Some(args) = args {
                names_in_template_args(args, names);
            }
        }
        A::Unary(_, x) | A::SizeofExpr(x) | A::AlignofExpr(x) | A::VecStepExpr(x) => {
            names_in_expr(x, names)
        }
        A::Binary(_, operands)
        | A::Assign(_, operands)
        | A::Comma(operands)
        | A::Index(operands) => {
            names_in_expr(&operands.0, names);
            names_in_expr(&operands.1, names);
        }
        A::Conditional(operands) => {
            names_in_expr(&operands.0, names);
            names_in_expr(&operands.1, names);
            names_in_expr(&operands.2, names);
        }
        A::Call(callee, args, _) => {
            names_in_expr(callee, names);
            args.iter().for_each(|a| names_in_expr(a, names));
        }
        A::Member { base, .. } => names_in_expr(base, names),
        A::MemberTemplateId(m) => {
            names_in_expr(&m.base, names);
            names_in_template_args(&m.args, names);
        }
        A::Cast(t, x) => {
            names_in_type_spec(&t.specs.ty, names);
            names_in_expr(x, names);
        }
        A::VectorLiteral(t, parts, _) => {
            names_in_type_spec(&t.specs.ty, names);
            parts.iter().for_each(|a| names_in_expr(a, names));
        }
        A::CompoundLiteral(t, init) => {
            names_in_type_spec(&t.specs.ty, names);
            names_in_initializer(init, names);
        }
        A::BracedList(init) => names_in_initializer(init, names),
        A::SizeofType(t) | A::AlignofType(t) | A::VecStepType(t) | A::Offsetof(t, _) => {
            names_in_type_spec(&t.specs.ty, names)
        }
        A::Fold(fold) => {
            for operand in [&fold.left, &fold.right].into_iter().flatten() {
                names_in_expr(operand, names);
            }
        }
        A::New(new) => {
            new.placement.iter().for_each(|a| names_in_expr(a, names));
            names_in_type_spec(&new.ty.specs.ty, names);
            match &new.init {
                ast::NewInit::Default => {}
                ast::NewInit::Parens(args, _) => args.iter().for_each(|a| names_in_expr(a, names)),
                ast::NewInit::Braces(init) => names_in_initializer(init, names),
            }
        }
    })
}

fn names_in_initializer(init: &ast::Initializer, names: &mut Vec<Name>) {
    match init {
        ast::Initializer::Expr(e) => names_in_expr(e, names),
        ast::Initializer::List(items, _) => {
            for (_, item) in items {
                names_in_initializer(item, names);
            }
        }
    }
}

fn names_in_template_args(args: &[ast::TemplateArg], names: &mut Vec<Name>) {
    for arg in args {
        match arg {
            ast::TemplateArg::Type(t) if !t.declarator.pack => {
                names_in_type_spec(&t.specs.ty, names)
            }
            ast::TemplateArg::Value(e) => names_in_expr(e, names),
            ast::TemplateArg::Type(_) => {}
        }
    }
}

/// The names type specifier `ty` mentions: a typedef name, and those in
/// template arguments and `decltype`.
pub(super) fn names_in_type_spec(ty: &ast::TypeSpec, names: &mut Vec<Name>) {
    match ty {
        ast::TypeSpec::Typedef(name) => names.push(*name),
        ast::TypeSpec::TemplateId(_, args) => names_in_template_args(args, names),
        ast::TypeSpec::Decltype(e) => names_in_expr(e, names),
        ast::TypeSpec::MemberType(class, _) => names_in_type_spec(class, names),
        _ => {}
    }
}
