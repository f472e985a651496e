//! C++ member types: `typedef T value_type;` and `using type = T;` in a
//! class, named in the class's scope (its members' types and member
//! functions) and as `S::value_type`, `Pair<int>::type` or, in a
//! template, `typename T::type`.

use super::*;
use crate::types::Record;
use naga::Handle;

impl Checker<'_> {
    /// Declares the member types of class `r`, written `types`, in the
    /// current scope (the class's, open while its members are checked),
    /// and notes them as the class's.
    pub(super) fn define_member_types(&mut self, r: Handle<Record>, types: &[ast::Declaration]) {
        for d in types {
            let (base, quals) = self.base_type(&d.specs);
            for init in &d.declarators {
                let Some((name, location)) = init.declarator.name else {
                    continue;
                };
                let (ty, align) =
                    self.typedef_type(base, quals, &d.specs, &init.declarator, location);
                let symbol = Symbol::Typedef(ty, quals_of_typedef(quals, &init.declarator), align);
                self.declare(name, symbol.clone());
                self.member_types.insert((r, name), symbol);
            }
        }
    }

    /// The member types of class `r`, for its scope.
    pub(super) fn member_type_names(&self, r: Handle<Record>) -> Vec<(Name, Symbol)> {
        super::static_members::entries_of(&self.member_types, r)
    }

    /// `Class::name` as a type: the member type `name` of the class that
    /// `class` (written in `specs`) names.
    pub(super) fn member_type(
        &mut self,
        specs: &ast::DeclSpecs,
        class: &ast::TypeSpec,
        name: Name,
    ) -> (Type, ast::Qualifiers) {
        if let ast::TypeSpec::TemplateId(template, args) = class {
            if self.text(*template) == crate::language::REMOVE_ADDRESS_SPACE
                && self.text(name) == "type"
            {
                let [ast::TemplateArg::Type(t)] = &args[..] else {
                    self.error(specs.type_location, "__remove_address_space takes one type");
                    return (Type::Error, ast::Qualifiers::default());
                };
                let ty = self.type_name(t);
                let quals = ast::Qualifiers {
                    is_const: t.specs.qualifiers.is_const,
                    ..ast::Qualifiers::default()
                };
                return (ty, quals);
            }
        }
        let class_specs = ast::DeclSpecs {
            ty: class.clone(),
            qualifiers: ast::Qualifiers::default(),
            ..specs.clone()
        };
        let (class, _) = self.base_type(&class_specs);
        let found = match class {
            Type::Record(r) => self.member_types.get(&(r, name)).cloned(),
            _ => None,
        };
        match found {
            Some(Symbol::Typedef(ty, quals, _)) => (ty, quals),
            _ => {
                if !class.is_error() {
                    let (member, shown) = (self.spelling(name), self.display(class));
                    self.error(
                        specs.type_location,
                        format!("no type named '{member}' in '{shown}'"),
                    );
                }
                (Type::Error, ast::Qualifiers::default())
            }
        }
    }
}
