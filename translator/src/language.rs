//! Which language a stretch of source is in, OpenCL C or C++ for OpenCL,
//! and the pragma that says so in a link: a link builds the concatenation
//! of its units' texts, and each unit keeps the rules it was compiled with
//! (a C unit's `'c'` is an `int`, a C++ unit's a `char`).

/// How a message about a C++ feature clvulkan lacks ends.
pub(crate) const NOT_YET: &str =
    "not supported by clvulkan's C++ for OpenCL yet, which takes the language's C subset";

/// The line a compiled unit's text starts with. The preprocessor keeps it
/// only when linking, so sources cannot use it.
pub(crate) fn unit_marker(cxx: bool) -> &'static str {
    if cxx {
        "#pragma clvulkan language CXX\n"
    } else {
        "#pragma clvulkan language C\n"
    }
}

/// The language a pragma (its text as the Pragma token spells it) switches
/// to: `Some(true)` for C++, `Some(false)` for C, `None` for other pragmas.
pub(crate) fn switched_to(pragma: &str) -> Option<bool> {
    let mut words = pragma.split_whitespace();
    if (words.next(), words.next()) != (Some("clvulkan"), Some("language")) {
        return None;
    }
    match (words.next(), words.next()) {
        (Some("CXX"), None) => Some(true),
        (Some("C"), None) => Some(false),
        _ => None,
    }
}

/// clang's error for a C++ keyword whose feature C++ for OpenCL leaves
/// out (the restrictions of the C++ for OpenCL documentation), or `None`
/// for one clvulkan only lacks yet.
pub fn excluded(word: &str) -> Option<String> {
    Some(match word {
        "virtual" => "virtual functions are not supported in C++ for OpenCL".to_owned(),
        "try" | "catch" | "throw" => format!("cannot use '{word}' with exceptions disabled"),
        "typeid" | "dynamic_cast" => format!("'{word}' is not supported in C++ for OpenCL"),
        _ => return None,
    })
}

/// The operators a C++ for OpenCL program may overload here, as written
/// after `operator`; each `operator` name is a symbol the parser adds.
/// Not yet: `&&`, `||`, `,` and `->`. `new` is the allocation function
/// placement `new` calls; `delete` is declared only.
pub const OVERLOADABLE_OPERATORS: [&str; 35] = [
    "+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>", "<", ">", "<=", ">=", "==", "!=", "!", "~",
    "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "[]", "()", "++", "--", "=",
    " new", " delete",
];

/// The name of C++'s `operator op`.
pub fn operator_name(op: &str) -> String {
    format!("operator{op}")
}

/// C++ for OpenCL's trait that strips a type's address space (seed 004):
/// `__remove_address_space<T>::type`.
pub const REMOVE_ADDRESS_SPACE: &str = "__remove_address_space";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_read_back() {
        for cxx in [false, true] {
            let text = unit_marker(cxx).trim_start_matches("#pragma ").trim();
            assert_eq!(switched_to(text), Some(cxx));
        }
        assert_eq!(switched_to("OPENCL FP_CONTRACT ON"), None);
        assert_eq!(switched_to("clvulkan language CXX extra"), None);
    }
}
