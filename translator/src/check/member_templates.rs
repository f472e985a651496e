//! C++ member function templates (`template <typename T> bool
//! operator()(T a, T b) const`). A class's member templates are kept by
//! name; a call that names one (`o.f(a)`, `o(a, b)`, an operator) deduces
//! each template's arguments from the call's, declares the instance as a
//! member function of the class, and adds it to the member functions the
//! call chooses among. The instance's body is checked with the program's
//! other instances, in the class's scope with the parameters bound.

use super::inheritance::BasePath;
use super::templates::{Pending, PendingInstance};
use super::*;
use crate::types::Record;
use naga::Handle;
use std::sync::Arc;

impl Checker<'_> {
    /// Keeps the member templates of class `r`, just completed from `spec`.
    pub(super) fn note_member_templates(&mut self, r: Handle<Record>, spec: &ast::RecordSpec) {
        for t in &spec.method_templates {
            let Some((name, _)) = t.method.declarator.name else {
                continue;
            };
            self.mark_template_definition(Arc::as_ptr(t) as usize);
            self.member_templates
                .entry((r, name))
                .or_default()
                .push(Arc::clone(t));
        }
    }

    /// The member functions named `name` that a call with the arguments
    /// `args` gives (checked, after the object; made only where a member
    /// template needs them) chooses among, of class `r` or, where it has
    /// none, of its first base that has (with the way to it): the ones
    /// declared, and the instances of its member templates that the
    /// arguments deduce.
    pub(super) fn member_functions(
        &mut self,
        r: Handle<Record>,
        name: Name,
        args: impl FnOnce(&mut Self) -> Vec<Expr>,
        at: Location,
    ) -> Option<(Vec<FunctionId>, BasePath)> {
        self.member_functions_given(r, name, &[], args, at)
    }

    /// [`Self::member_functions`] for a call that gives member template
    /// arguments (`o.as<int>()`): only the templates are candidates, with
    /// the arguments `explicit` given.
    pub(super) fn member_functions_given(
        &mut self,
        r: Handle<Record>,
        name: Name,
        explicit: &[ast::TemplateArg],
        args: impl FnOnce(&mut Self) -> Vec<Expr>,
        at: Location,
    ) -> Option<(Vec<FunctionId>, BasePath)> {
        let (class, path) = self.class_declaring(r, name)?;
        let mut candidates = match explicit {
            [] => (self.methods.get(&(class, name)).cloned()).unwrap_or_default(),
            _ => Vec::new(),
        };
        let Some(templates) = self.member_templates.get(&(class, name)).cloned() else {
            return Some((candidates, path));
        };
        let args = args(self);
        for t in templates {
            let given =
                self.quietly(|c| c.written_template_arguments(&t.params, explicit, Span::at(at)));
            let Some(given) = given else { continue };
            let Some(arguments) = self.deduce_for(&t.params, &t.method.declarator, &given, &args)
            else {
                continue;
            };
            if let Some(id) = self.member_template_instance(class, &t, arguments, at) {
                candidates.push(id);
            }
        }
        Some((candidates, path))
    }

    /// The arguments `args` of a call, checked quietly for their types
    /// (the call checks them again).
    pub(super) fn argument_values(&mut self, args: &[&ast::Expr]) -> Vec<Expr> {
        self.quietly(|c| args.iter().map(|a| c.expr(a)).collect())
    }

    /// The class that declares member functions or member templates named
    /// `name`: `r` or the first of its bases that does, in order, with
    /// the way to it.
    fn class_declaring(&self, r: Handle<Record>, name: Name) -> Option<(Handle<Record>, BasePath)> {
        if self.methods.contains_key(&(r, name)) || self.member_templates.contains_key(&(r, name)) {
            return Some((r, Vec::new()));
        }
        self.bases.get(&r)?.iter().find_map(|base| {
            let (class, mut rest) = self.class_declaring(base.record, name)?;
            rest.insert(0, *base);
            Some((class, rest))
        })
    }

    /// The instance of member template `t` of class `r` for `arguments`:
    /// declared now (once), its body checked with the other instances.
    fn member_template_instance(
        &mut self,
        r: Handle<Record>,
        t: &Arc<ast::MethodTemplate>,
        arguments: Vec<templates::TemplateArgument>,
        requested_at: Location,
    ) -> Option<FunctionId> {
        // Each instance of a class template shares its member templates:
        // the class is part of the key.
        let class = templates::TemplateArgument::Type(Type::Record(r), ast::Qualifiers::default());
        let key = (
            Arc::as_ptr(t) as usize,
            std::iter::once(class)
                .chain(arguments.iter().copied())
                .collect(),
        );
        if let Some(&id) = self.instances.get(&key) {
            return Some(id);
        }
        if self.too_deep(requested_at) {
            return None;
        }
        if let Some(&deduce_return) = self.generic_closures.get(&r) {
            // A generic lambda's body is checked now, where it may give
            // the return type the call needs.
            let listed: Vec<String> = arguments.iter().map(|&a| self.argument_text(a)).collect();
            let display = format!("lambda<{}>", listed.join(", "));
            let instance = Some((&arguments[..], &display[..]));
            let references = (self.closure_references.get(&r))
                .map(|(_, references)| references.clone())
                .unwrap_or_default();
            let id = self.call_operator_of(r, t, deduce_return, &references, instance)?;
            self.instances.insert(key, id);
            return Some(id);
        }
        let m = &t.method;
        let (name, location) = m.declarator.name?;
        let display = format!(
            "{}::{}",
            self.class_spelling(r),
            self.instance_display(name, &arguments)
        );
        let in_instance = self.open_instance_scope(r);
        self.open_class_scope(r);
        self.bind_template_parameters(&t.params, &arguments);
        let owner = self.method_owner(r, &m.specs, m.this_qualifiers, location);
        let declared = owner.map(|owner| {
            self.declare_function(
                &m.specs,
                &m.declarator,
                location,
                true,
                Some(owner),
                Some(&display),
            )
        });
        self.scopes.pop();
        self.scopes.pop();
        if in_instance {
            self.scopes.pop();
        }
        let (owner, (id, _)) = (owner?, declared?);
        if owner.this.is_none() {
            self.static_methods.insert(id);
        }
        self.instances.insert(key, id);
        let visible = self.template_visibility(Arc::as_ptr(t) as usize);
        let pending = PendingInstance {
            visible,
            what: Pending::Method(id, r, Arc::clone(t), owner),
            arguments,
            display,
            requested_at,
            depth: self.instantiation_depth + 1,
        };
        self.check_or_plan(id, pending);
        Some(id)
    }
}
