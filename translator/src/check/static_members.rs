//! C++ static data members: each a program-scope variable of its own,
//! in `__global` unless declared otherwise (seed 004), named only in its
//! class's scope (in its member functions, and as `S::name`). A `const`
//! or `constexpr` one with a constant integer initialiser is a constant
//! expression there too (`int a[S::N]`), as a `const` global is.

use super::*;
use crate::types::Record;
use naga::Handle;

impl Checker<'_> {
    /// Declares the static data members of class `r`, written `statics`,
    /// in the current scope (the class's, open while its members are
    /// checked, so that `int data[N];` may use them), and notes them as
    /// the class's.
    pub(super) fn define_static_members(
        &mut self,
        r: Handle<Record>,
        statics: &[ast::Declaration],
    ) {
        for d in statics {
            if self.current.is_some() && self.instantiating_class.is_none() {
                self.error(d.location, "static data member not allowed in local class");
                continue;
            }
            let (base, quals) = self.base_type(&d.specs);
            for init in &d.declarators {
                let Some((name, _)) = init.declarator.name else {
                    continue;
                };
                self.program_scope_variable(d, init, base, quals);
                if let Some(symbol) = self.scopes.in_innermost(name).cloned() {
                    self.static_members.insert((r, name), symbol);
                }
            }
        }
    }

    /// The static data members of class `r`, for its scope.
    pub(super) fn static_member_names(&self, r: Handle<Record>) -> Vec<(Name, Symbol)> {
        entries_of(&self.static_members, r)
    }

    /// `int S::count = 1;` at file scope: the initializer of static data
    /// member `count` of class `S`, declared in it without one.
    pub(super) fn static_member_definition(
        &mut self,
        (class, class_at): (Name, Location),
        init: &ast::InitDeclarator,
        base: Type,
        quals: ast::Qualifiers,
        location: Location,
    ) {
        let Some((name, _)) = init.declarator.name else {
            return;
        };
        let member = match self.cxx_tag_type(class) {
            Some(Type::Record(r)) => self.static_members.get(&(r, name)).cloned(),
            _ => {
                let spelling = self.spelling(class);
                self.error(
                    class_at,
                    format!("use of undeclared identifier '{spelling}'"),
                );
                return;
            }
        };
        let Some(Symbol::Global(id)) = member else {
            let (member, class) = (self.spelling(name), self.spelling(class));
            self.error(location, format!("no member named '{member}' in '{class}'"));
            return;
        };
        let ty = self.declarator_type(base, quals, &init.declarator, location);
        if ty != self.program.globals[id].ty {
            let spelling = self.spelling(name);
            self.error(
                location,
                format!("redefinition of '{spelling}' with a different type"),
            );
            return;
        }
        let Some(initializer) = &init.init else {
            return;
        };
        if self.program.globals[id].init.is_some() || self.global_constants.contains_key(&id) {
            let spelling = self.spelling(name);
            self.error(location, format!("redefinition of '{spelling}'"));
            return;
        }
        let (value, _) = self.initializer(initializer, ty, location);
        self.program.globals[id].init = Some(self.commit_global(value));
    }

    /// `Class::name` or `Template<args>::name` naming a static data
    /// member, if it does.
    pub(super) fn qualified_static_member(
        &mut self,
        class: Name,
        template_args: Option<&[ast::TemplateArg]>,
        name: Name,
        at: Location,
    ) -> Option<Symbol> {
        let ty = match template_args {
            Some(args) => self.class_template_type(class, args, at),
            None => self.qualifying_type(class)?,
        };
        let Type::Record(r) = ty else {
            return None;
        };
        self.static_members.get(&(r, name)).cloned()
    }
}

/// The entries of class `r` in `map` (static data members, member
/// types), in the order of their names' symbols.
pub(super) fn entries_of(
    map: &HashMap<(Handle<Record>, Name), Symbol>,
    r: Handle<Record>,
) -> Vec<(Name, Symbol)> {
    let mut entries: Vec<(Name, Symbol)> = (map.iter())
        .filter(|((class, _), _)| *class == r)
        .map(|((_, name), symbol)| (*name, symbol.clone()))
        .collect();
    entries.sort_by_key(|(name, _)| name.0);
    entries
}
