//! C++ function overloading on user functions: several functions may share
//! a name when their parameters differ, and a call picks the one whose
//! parameters its arguments convert to best (C++17 [over.match]), ranking
//! each conversion as an exact match, a promotion or a conversion. The
//! scope holds the first function of a name; the others are listed here.

use super::*;

/// How well an argument converts to a parameter (C++17 [over.ics.scs]);
/// lower is better.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Exact,
    /// An exact match that converts what a pointer points to into the
    /// generic address space: a better match than a promotion, worse
    /// than one that does not ([over.ics.rank] 3.2.5; clang ranks
    /// address-space conversions alike).
    Qualification,
    /// One that also adds `const`: worse than one that does not, as a
    /// proper subset of the qualifications is better (3.2.6), so that
    /// `begin()` is chosen over `begin() const` for an object that is not
    /// `const`.
    ConstQualification,
    Promotion,
    Conversion,
}

impl Checker<'_> {
    /// The functions named like `first`, the one the scope holds.
    pub(super) fn overload_set(&self, first: FunctionId) -> Vec<FunctionId> {
        self.overloads
            .get(&first)
            .cloned()
            .unwrap_or_else(|| vec![first])
    }

    /// Adds `new` to the functions named like `first`.
    pub(super) fn add_overload(&mut self, first: FunctionId, new: FunctionId) {
        self.overloads
            .entry(first)
            .or_insert_with(|| vec![first])
            .push(new);
    }

    /// Whether function `id` takes exactly `signature` with reference
    /// parameters `references` (kept as pointers, so compared apart).
    pub(super) fn same_parameters(
        &self,
        id: FunctionId,
        signature: &[Type],
        references: &[bool],
    ) -> bool {
        let earlier = self.reference_params.get(&id);
        self.program.functions[id].signature == signature
            && references
                .iter()
                .enumerate()
                .all(|(i, r)| earlier.and_then(|e| e.get(i)).unwrap_or(&false) == r)
    }

    /// Whether function `id`'s rvalue reference parameters are `rvalues`.
    pub(super) fn same_rvalue_references(&self, id: FunctionId, rvalues: &[bool]) -> bool {
        match self.rvalue_params.get(&id) {
            Some(earlier) => earlier == rvalues,
            None => !rvalues.contains(&true),
        }
    }

    /// The function of `candidates` a call with `args` (checked, decayed)
    /// resolves to, or `None` after reporting clang's error.
    pub(super) fn resolve_overload(
        &mut self,
        name: Name,
        candidates: &[FunctionId],
        args: &[Expr],
        span: Span,
    ) -> Option<FunctionId> {
        let viable: Vec<(FunctionId, Vec<Rank>)> = candidates
            .iter()
            .filter_map(|&id| Some((id, self.ranks(id, args)?)))
            .collect();
        let better = |a: &[Rank], b: &[Rank]| a.iter().zip(b).all(|(x, y)| x <= y) && a != b;
        let best: Vec<FunctionId> = viable
            .iter()
            .filter(|(id, ranks)| {
                viable
                    .iter()
                    .all(|(other, theirs)| other == id || better(ranks, theirs))
            })
            .map(|(id, _)| *id)
            .collect();
        let spelling = self.spelling(name);
        match (best.as_slice(), viable.len()) {
            ([id], _) => Some(*id),
            (_, 0) => {
                self.error(
                    span,
                    format!("no matching function for call to '{spelling}'"),
                );
                None
            }
            _ => {
                self.error(span, format!("call to '{spelling}' is ambiguous"));
                None
            }
        }
    }

    /// Each argument's rank against function `id`'s parameters, or `None`
    /// when the call cannot use it (a count default arguments do not
    /// make up, an argument that does not convert).
    fn ranks(&self, id: FunctionId, args: &[Expr]) -> Option<Vec<Rank>> {
        let params = &self.program.functions[id].signature;
        let defaults = self.default_args.get(&id);
        let fills = (args.len()..params.len())
            .all(|i| defaults.is_some_and(|d| d.get(i).is_some_and(Option::is_some)));
        if args.len() > params.len() || !fills {
            return None;
        }
        let references = self.reference_params.get(&id);
        let rvalues = self.rvalue_params.get(&id);
        (args.iter().zip(params).enumerate())
            .map(|(i, (a, &p))| {
                let by_reference = references.is_some_and(|r| r.get(i) == Some(&true));
                let rvalue = rvalues.is_some_and(|r| r.get(i) == Some(&true));
                self.rank(a, p, by_reference, rvalue)
            })
            .collect()
    }

    fn rank(&self, arg: &Expr, param: Type, by_reference: bool, rvalue: bool) -> Option<Rank> {
        if by_reference {
            // Binding: to an object of the referent's type, or for a
            // `const` or rvalue reference, to a value that converts.
            let referent = self.pointee(param)?;
            return match (arg.ty, referent.ty) {
                (a, r) if a == r => Some(Rank::Exact),
                (a, r) if self.derives_from(a, r) => Some(Rank::Conversion),
                (Type::Scalar(_), Type::Scalar(_)) if referent.is_const || rvalue => {
                    Some(Rank::Conversion)
                }
                _ => None,
            };
        }
        match (arg.ty, param) {
            (a, p) if a == p => Some(Rank::Exact),
            // Derived to base: a conversion ([over.best.ics] 6).
            (a, p) if self.derives_from(a, p) => Some(Rank::Conversion),
            // Through a conversion function: ranked as a conversion (C++
            // ranks user-defined conversions after every standard one).
            (a, p) if self.converts_by_function(a, p) => Some(Rank::Conversion),
            (Type::Pointer(_), Type::Pointer(_))
                if self.base_pointer_target(arg, param).is_some() =>
            {
                Some(Rank::Conversion)
            }
            (Type::Scalar(a), Type::Scalar(p)) => {
                let promotes = (promote(a) == p && a != p && a.is_integer())
                    || (a == Scalar::Float && p == Scalar::Double);
                Some(if promotes {
                    Rank::Promotion
                } else {
                    Rank::Conversion
                })
            }
            // A null pointer constant, `0` or `nullptr`.
            (Type::Scalar(s), Type::Pointer(_))
                if s.is_integer() && matches!(arg.kind, H::Int(0)) =>
            {
                Some(Rank::Conversion)
            }
            (Type::Pointer(_), Type::Pointer(_)) if matches!(arg.kind, H::Int(0)) => {
                Some(Rank::Conversion)
            }
            (Type::Pointer(a), Type::Pointer(p)) => {
                let (a, p) = (self.program.types[a], self.program.types[p]);
                let space = a.space == p.space
                    || (p.space == AddressSpace::Generic && a.space != AddressSpace::Constant);
                let qualifiers = !a.is_const || p.is_const;
                let adjusted = a.space != p.space || a.is_const != p.is_const;
                match () {
                    _ if !space || !qualifiers => None,
                    _ if a.ty == p.ty && a.is_const != p.is_const => Some(Rank::ConstQualification),
                    _ if a.ty == p.ty && adjusted => Some(Rank::Qualification),
                    _ if a.ty == p.ty => Some(Rank::Exact),
                    _ if p.ty == Type::Void => Some(Rank::Conversion),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}
