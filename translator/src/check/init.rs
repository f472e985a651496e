//! Initializers: `= expr` and `= { ... }` lists with designators and brace
//! elision (C99 6.7.8), flattened into (member/element path, value) pairs.

use super::tree::Expr;
use super::{Checker, Conversion};
use crate::ast::{self, Designator};
use crate::diagnostic::Location;
use crate::hir::ExprKind as H;
use crate::types::{Scalar, Type};

/// The sub-objects of an aggregate, as a list initializer walks them.
enum Shape {
    /// Elements of one type; `None` count for an array of unknown size.
    Elements(Type, Option<u64>),
    /// Struct members in order (or the first union member), and whether
    /// it is a union.
    Members(Vec<Type>, bool),
    Scalar,
}

impl Checker<'_> {
    fn shape(&self, ty: Type) -> Shape {
        match ty {
            Type::Array(elem, 0) => Shape::Elements(self.program.types[elem], None),
            Type::Array(elem, n) => Shape::Elements(self.program.types[elem], Some(n)),
            Type::Vector(s, n) => Shape::Elements(Type::Scalar(s), Some(u64::from(n))),
            Type::Record(r) => {
                let r = self.record(r);
                let is_union = r.kind == ast::RecordKind::Union;
                Shape::Members(r.fields.iter().map(|f| f.ty).collect(), is_union)
            }
            _ => Shape::Scalar,
        }
    }

    /// Checks the initializer of an object of type `ty`. An array of unknown
    /// size takes its size from the list; the returned type says which.
    pub(super) fn initializer(
        &mut self,
        init: &ast::Initializer,
        ty: Type,
        name_location: Location,
    ) -> (Expr, Type) {
        match init {
            ast::Initializer::Expr(e)
                if matches!(e.kind, ast::ExprKind::StringLiteral(_)) && self.is_char_array(ty) =>
            {
                self.string_initializer(e, ty)
            }
            ast::Initializer::Expr(e) => {
                if let Type::Array(..) = ty {
                    self.error(e.location, "array initializer must be an initializer list");
                }
                let v = self.expr(e);
                let v = self.convert_for_assignment(v, ty, Conversion::Init(name_location));
                (v, ty)
            }
            ast::Initializer::List(items, span) => {
                match self.expanded_list(items) {
                    Ok(None) => {}
                    Ok(Some(items)) => {
                        let list = ast::Initializer::List(items, *span);
                        return self.initializer(&list, ty, name_location);
                    }
                    Err(()) => return (Expr::new(H::Int(0), Type::Error, *span), ty),
                }
                let mut out = Vec::new();
                let at = span.location();
                let count = self.fill(ty, &[], &mut Cursor::new(items), &mut out, true, at);
                let ty = match ty {
                    Type::Array(elem, 0) => {
                        let elem = self.program.types[elem];
                        self.array_of(elem, count.max(1))
                    }
                    t => t,
                };
                let items = out.into_iter().map(|(at, v)| (at, Box::new(v))).collect();
                (Expr::new(H::InitList(items), ty, *span), ty)
            }
        }
    }

    /// `char s[] = "text"` (C99 6.7.8p14): the string's bytes and its NUL
    /// as an initializer list, the NUL left out where the array has room
    /// for the bytes only; an array of unknown size takes them all.
    fn string_initializer(&mut self, e: &ast::Expr, ty: Type) -> (Expr, Type) {
        let Type::Array(elem, declared) = ty else {
            unreachable!("is_char_array checked the type");
        };
        let elem = self.program.types[elem];
        let value = self.expr(e);
        let H::Str(bytes) = &value.kind else {
            // The literal was invalid, already reported.
            return (value, ty);
        };
        let with_nul = bytes.len() as u64 + 1;
        let size = if declared == 0 { with_nul } else { declared };
        if bytes.len() as u64 > size {
            // As clang: a warning, and the bytes past the array dropped.
            self.diags
                .warning(e.location, "initializer-string for char array is too long");
        }
        let scalar = elem.scalar().unwrap_or(Scalar::Char);
        let bytes = bytes.clone();
        let list = self.string_bytes(&bytes, scalar, size, e.span());
        let ty = list.ty;
        (list, ty)
    }

    /// The first `size` of `bytes` and a NUL as an initializer list of a
    /// `scalar` array.
    pub(super) fn string_bytes(
        &mut self,
        bytes: &[u8],
        scalar: Scalar,
        size: u64,
        span: crate::diagnostic::Span,
    ) -> Expr {
        let items = bytes
            .iter()
            .chain(std::iter::once(&0))
            .take(size as usize)
            .enumerate()
            .map(|(i, &b)| {
                let bits = crate::literal::wrap(i64::from(b as i8), scalar);
                (
                    vec![i as u64],
                    Box::new(self.int_const(bits, Type::Scalar(scalar), span)),
                )
            })
            .collect();
        let ty = self.array_of(Type::Scalar(scalar), size);
        Expr::new(H::InitList(items), ty, span)
    }

    /// Initialises the sub-objects of `ty` (at `path`) from the list under
    /// `cursor`. `braced` is true for the list's own level; false when
    /// brace elision lets a sub-aggregate take plain values. Returns how
    /// many elements were reached (the size of an array of unknown size).
    ///
    /// Every turn of the loop takes at least one item or ends it: that is
    /// what makes the walk finish. A braced level takes each item itself or
    /// hands it to a sub-aggregate's elision, which takes it unless the
    /// sub-aggregate has no sub-objects at all (reported then, and the item
    /// skipped, as clang does).
    fn fill(
        &mut self,
        ty: Type,
        path: &[u64],
        cursor: &mut Cursor<'_>,
        out: &mut Vec<(Vec<u64>, Expr)>,
        braced: bool,
        location: Location,
    ) -> u64 {
        crate::stack::guard(|| {
            // `char s[] = { "text" }`, and a braced row of a table of strings.
            if let (true, [(designators, ast::Initializer::Expr(e))]) =
                (braced && self.is_char_array(ty), cursor.rest())
            {
                if designators.is_empty() && matches!(e.kind, ast::ExprKind::StringLiteral(_)) {
                    let (mut list, sized) = self.string_initializer(e, ty);
                    if let H::InitList(bytes) = list.take_kind() {
                        out.extend(bytes.into_iter().map(|(at, byte)| {
                            let mut byte_path = path.to_vec();
                            byte_path.extend(at);
                            (byte_path, *byte)
                        }));
                    }
                    cursor.advance();
                    return match sized {
                        Type::Array(_, n) => n,
                        _ => 1,
                    };
                }
            }
            let shape = self.shape(ty);
            if matches!(shape, Shape::Scalar) && cursor.within_designation() && cursor.has_steps() {
                // `.x.y` for a scalar `x`: reported as a single designator
                // on it would be.
                self.designation_step(ty, &shape, cursor);
                cursor.advance();
                return 1;
            }
            if let Shape::Scalar = shape {
                // `int x = { 5 };`
                if let Some((_, ast::Initializer::Expr(e))) = cursor.current() {
                    let v = self.expr(e);
                    let v = self.convert_for_assignment(v, ty, Conversion::Init(e.location));
                    out.push((path.to_vec(), v));
                    cursor.advance();
                }
                if braced && !cursor.is_done() {
                    self.error(location, "excess elements in scalar initializer");
                    cursor.finish();
                }
                return 1;
            }
            let mut current = 0u64;
            let mut reached = 0u64;
            while let Some((_, init)) = cursor.current() {
                // A designation (C99 6.7.8p17-18): its first step is this
                // level's, each further one that of the sub-object the
                // step before it chose, which this level enters unbraced
                // and which goes on from there with the items after it.
                let designated = cursor.has_steps();
                if designated {
                    if !braced && !cursor.within_designation() {
                        // A new item's designation names a sub-object of
                        // the enclosing braced list.
                        break;
                    }
                    match self.designation_step(ty, &shape, cursor) {
                        Some(i) => current = i,
                        None => {
                            cursor.advance();
                            continue;
                        }
                    }
                }
                let sub_ty = match &shape {
                    Shape::Elements(elem, count) => {
                        if count.is_some_and(|n| current >= n) {
                            None
                        } else {
                            Some(*elem)
                        }
                    }
                    Shape::Members(types, is_union) => {
                        if *is_union && current > 0 && !designated {
                            None
                        } else {
                            types.get(current as usize).copied()
                        }
                    }
                    Shape::Scalar => None,
                };
                let Some(sub_ty) = sub_ty else {
                    if braced {
                        let what = match ty {
                            Type::Array(..) => "array",
                            Type::Vector(..) => "vector",
                            _ => "struct",
                        };
                        let at = match init {
                            ast::Initializer::Expr(e) => e.location,
                            ast::Initializer::List(_, l) => l.location(),
                        };
                        self.error(at, format!("excess elements in {what} initializer"));
                        cursor.finish();
                    }
                    break;
                };
                let mut sub_path = path.to_vec();
                sub_path.push(current);
                if cursor.has_steps() {
                    // The designation goes on into the sub-object.
                    let before = cursor.position();
                    self.fill(sub_ty, &sub_path, cursor, out, false, location);
                    if cursor.position() == before {
                        cursor.advance();
                    }
                    current += 1;
                    reached = reached.max(current);
                    continue;
                }
                match init {
                    ast::Initializer::List(sub_items, l) => {
                        let at = l.location();
                        let mut sub_cursor = Cursor::new(sub_items);
                        self.fill(sub_ty, &sub_path, &mut sub_cursor, out, true, at);
                        cursor.advance();
                    }
                    ast::Initializer::Expr(e)
                        if matches!(e.kind, ast::ExprKind::StringLiteral(_))
                            && self.is_char_array(sub_ty) =>
                    {
                        let (mut list, _) = self.string_initializer(e, sub_ty);
                        if let H::InitList(bytes) = list.take_kind() {
                            out.extend(bytes.into_iter().map(|(at, byte)| {
                                let mut byte_path = sub_path.clone();
                                byte_path.extend(at);
                                (byte_path, *byte)
                            }));
                        }
                        cursor.advance();
                    }
                    // Arrays and records take plain values by brace elision
                    // (C99 6.7.8p20). A vector never does in OpenCL C, as in
                    // clang: a value of another type initialises it whole, by
                    // assignment's rules (a scalar is splatted, another vector
                    // type is an error), below.
                    ast::Initializer::Expr(e)
                        if matches!(sub_ty, Type::Array(..) | Type::Record(_)) =>
                    {
                        // A value of the sub-aggregate's own type initialises it
                        // whole; anything else starts brace elision, which
                        // checks the expression again, so this first look
                        // leaves no diagnostics behind.
                        let mark = self.diags.len();
                        let v = self.rvalue(e);
                        if v.ty == sub_ty {
                            out.push((sub_path, v));
                            cursor.advance();
                        } else {
                            self.diags.truncate(mark);
                            let before = cursor.position();
                            // This item's designators, if any, were this
                            // level's: the elision starts at the sub-aggregate's
                            // first sub-object.
                            cursor.spend_designators();
                            self.fill(sub_ty, &sub_path, cursor, out, false, location);
                            if cursor.position() == before {
                                self.error(
                                e.location,
                                "initializer for aggregate with no elements requires explicit braces",
                            );
                                cursor.advance();
                            }
                        }
                    }
                    ast::Initializer::Expr(e) => {
                        let v = self.expr(e);
                        if !v.ty.is_error() {
                            let v = self.convert_for_assignment(
                                v,
                                sub_ty,
                                Conversion::Init(e.location),
                            );
                            out.push((sub_path, v));
                        }
                        cursor.advance();
                    }
                }
                current += 1;
                reached = reached.max(current);
            }
            reached
        })
    }

    /// Acts on the next step of the current item's designation at a level
    /// of type `ty`: the index of the sub-object it names, or `None` after
    /// reporting why it names none. A field designator may name a member
    /// of an anonymous struct or union member (C11 6.7.2.1p13): it steps
    /// into the anonymous members on the way, as clang does.
    fn designation_step(
        &mut self,
        ty: Type,
        shape: &Shape,
        cursor: &mut Cursor<'_>,
    ) -> Option<u64> {
        if let Some(i) = cursor.take_implicit() {
            return Some(i);
        }
        let designator = cursor.take_designator()?;
        match (designator, shape) {
            // clang's wording for each way an index can be wrong.
            (Designator::Index(e), Shape::Elements(_, count))
                if !matches!(ty, Type::Vector(..)) =>
            {
                match self.const_int(e) {
                    Some(i) if i >= 0 && count.is_none_or(|n| (i as u64) < n) => Some(i as u64),
                    Some(i) if i < 0 => {
                        self.error(
                            e.location,
                            format!("array designator value '{i}' is negative"),
                        );
                        None
                    }
                    Some(i) => {
                        let n = count.unwrap_or(0);
                        self.error(
                            e.location,
                            format!("array designator index ({i}) exceeds array bounds ({n})"),
                        );
                        None
                    }
                    None => {
                        self.error(
                            e.location,
                            "expression is not an integer constant expression",
                        );
                        None
                    }
                }
            }
            (Designator::Field(name, loc), Shape::Members(..)) => {
                let Type::Record(r) = ty else {
                    return None;
                };
                let spelling = self.spelling(*name);
                match self.field_path(r, &spelling) {
                    Some(path) => {
                        cursor.set_implicit(path[1..].iter().map(|&i| i as u64).collect());
                        Some(path[0] as u64)
                    }
                    None => {
                        self.error(*loc, format!("field designator '{spelling}' does not refer to any field in type '{}'", self.display(ty)));
                        None
                    }
                }
            }
            (Designator::Index(e), _) => {
                self.error(
                    e.location,
                    format!(
                        "array designator cannot initialize non-array type '{}'",
                        self.display(ty)
                    ),
                );
                None
            }
            (Designator::Field(_, loc), _) => {
                self.error(
                    *loc,
                    format!(
                        "field designator cannot initialize a non-struct, non-union type '{}'",
                        self.display(ty)
                    ),
                );
                None
            }
        }
    }

    /// Whether `ty` is an array of `char` or `uchar`, which a string
    /// literal may initialise.
    fn is_char_array(&self, ty: Type) -> bool {
        matches!(
            self.element_of(ty),
            Some(Type::Scalar(Scalar::Char | Scalar::UChar))
        )
    }
}

/// Where a list initializer's walk stands: the items, the next one, and
/// how far its designation has been acted on: how many of its designators
/// the levels above took (all of them once a level handed the item to a
/// sub-aggregate's brace elision), and the members of anonymous members a
/// field designator stepped into and that are still to be entered.
struct Cursor<'a> {
    items: &'a [(Vec<Designator>, ast::Initializer)],
    pos: usize,
    designators_taken: usize,
    implicit: Vec<u64>,
}

impl<'a> Cursor<'a> {
    fn new(items: &'a [(Vec<Designator>, ast::Initializer)]) -> Self {
        Cursor {
            items,
            pos: 0,
            designators_taken: 0,
            implicit: Vec::new(),
        }
    }

    fn current(&self) -> Option<&'a (Vec<Designator>, ast::Initializer)> {
        self.items.get(self.pos)
    }

    fn rest(&self) -> &'a [(Vec<Designator>, ast::Initializer)] {
        self.items.get(self.pos..).unwrap_or(&[])
    }

    /// The designators of the current item that are still to be acted on.
    fn designators(&self) -> &'a [Designator] {
        match self.current() {
            Some((designators, _)) => designators.get(self.designators_taken..).unwrap_or(&[]),
            None => &[],
        }
    }

    /// Whether the current item's designation has steps left.
    fn has_steps(&self) -> bool {
        !self.implicit.is_empty() || !self.designators().is_empty()
    }

    /// Whether a level above has acted on part of the current item's
    /// designation: the rest is this level's.
    fn within_designation(&self) -> bool {
        self.designators_taken > 0 || !self.implicit.is_empty()
    }

    fn take_designator(&mut self) -> Option<&'a Designator> {
        let d = self.designators().first()?;
        self.designators_taken += 1;
        Some(d)
    }

    fn take_implicit(&mut self) -> Option<u64> {
        (!self.implicit.is_empty()).then(|| self.implicit.remove(0))
    }

    fn set_implicit(&mut self, members: Vec<u64>) {
        self.implicit = members;
    }

    fn spend_designators(&mut self) {
        if let Some((designators, _)) = self.current() {
            self.designators_taken = designators.len();
        }
        self.implicit.clear();
    }

    fn position(&self) -> usize {
        self.pos
    }

    fn advance(&mut self) {
        self.pos += 1;
        self.designators_taken = 0;
        self.implicit.clear();
    }

    fn is_done(&self) -> bool {
        self.pos >= self.items.len()
    }

    fn finish(&mut self) {
        self.pos = self.items.len();
        self.designators_taken = 0;
        self.implicit.clear();
    }
}
