//! What an identifier means to the parser, decided by its spelling alone:
//! keywords, the built-in type names that are not keywords, and ordinary
//! names.

use crate::ast::{AddressSpace, Qualifiers, ScalarWords, StorageClass};
use crate::lexer::{CompactToken, Spellings};
use crate::token::TokenKind;
use crate::{language, types};

/// Each token's keyword class, classifying each distinct spelling once
/// per language: C++ for OpenCL's keywords where `cxx`, and from a
/// language pragma on (a link's units), that unit's language.
pub(super) fn classify(tokens: &[CompactToken], spellings: &Spellings, mut cxx: bool) -> Vec<Kw> {
    let mut kw_of_sym: [Vec<Option<Kw>>; 2] =
        [vec![None; spellings.len()], vec![None; spellings.len()]];
    tokens
        .iter()
        .map(|t| match t.kind {
            TokenKind::Identifier => *kw_of_sym[usize::from(cxx)][t.sym as usize]
                .get_or_insert_with(|| {
                    let word = &spellings[t.sym as usize];
                    cxx.then(|| cxx_keyword(word))
                        .flatten()
                        .unwrap_or_else(|| keyword(word))
                }),
            TokenKind::Pragma => {
                cxx = language::switched_to(&spellings[t.sym as usize]).unwrap_or(cxx);
                Kw::NotIdent
            }
            _ => Kw::NotIdent,
        })
        .collect()
}

/// What an identifier means to the parser, decided by its spelling alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kw {
    /// The token is not an identifier.
    NotIdent,
    /// An ordinary name, possibly a typedef name.
    Name,
    /// A built-in type name that is not a keyword (`float4`, `size_t`, ...).
    BuiltinType,
    Storage(StorageClass),
    Const,
    Volatile,
    Restrict,
    AddressSpace(AddressSpace),
    Kernel,
    /// `inline`, `__inline`.
    Inline,
    /// `__inline__`: a specifier like `inline`, but not one that announces a
    /// declaration at the start of a statement.
    GnuInline,
    /// Image and pipe access qualifiers; kept for later, ignored now.
    Access,
    /// The GNU attribute keyword (`__attribute__` or `__attribute`). Exact
    /// spellings only: an identifier that merely starts like one
    /// (`__attributes`) is an ordinary name, and treating it as an attribute
    /// would make the specifier loops spin without consuming it.
    Attribute,
    Scalar(ScalarWord),
    Struct,
    Union,
    Enum,
    If,
    Else,
    While,
    Do,
    For,
    Switch,
    Case,
    Default,
    Break,
    Continue,
    Return,
    Goto,
    Sizeof,
    VecStep,
    Alignof,
    /// `__builtin_offsetof`, which `offsetof` expands to.
    Offsetof,
    /// `_Static_assert`, and C++'s `static_assert`.
    StaticAssert,
    /// C++'s `constexpr`.
    Constexpr,
    /// C++'s `using`.
    Using,
    /// C++'s `namespace`.
    Namespace,
    /// C++'s `decltype`.
    Decltype,
    /// C++'s `auto`: a type deduced from the initialiser.
    Auto,
    /// C++'s `true` and `false`.
    BoolLiteral(bool),
    /// C++'s `nullptr`.
    Nullptr,
    /// C++'s `this`.
    This,
    /// C++'s `explicit`.
    Explicit,
    /// C++'s `friend`.
    Friend,
    /// C++'s `noexcept`: OpenCL has no exceptions, so it promises nothing
    /// clvulkan uses.
    Noexcept,
    /// C++'s `mutable`.
    Mutable,
    /// C++'s `operator`.
    Operator,
    /// C++'s `static_cast`, `reinterpret_cast` and `const_cast`.
    NamedCast,
    /// C++'s `template` and `typename`.
    Template,
    Typename,
    /// C++'s `public` and `protected`.
    AccessSpecifier,
    /// C++'s `new` and `delete`: placement `new`, `= delete`, and the
    /// allocation functions' names.
    New,
    Delete,
    /// A C++ keyword for what clvulkan's C++ for OpenCL does not have yet.
    CxxUnsupported,
}

/// A keyword that spells (part of) a scalar type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ScalarWord {
    Void,
    Bool,
    Char,
    Short,
    Int,
    Long,
    Signed,
    Unsigned,
    Half,
    Float,
    Double,
}

/// C++ keywords that C lacks, in C++ for OpenCL, or `None` for a word
/// that means what it means in OpenCL C. `auto` deduces a type in C++.
fn cxx_keyword(word: &str) -> Option<Kw> {
    Some(match word {
        "true" => Kw::BoolLiteral(true),
        "false" => Kw::BoolLiteral(false),
        "nullptr" => Kw::Nullptr,
        "alignof" => Kw::Alignof,
        "static_assert" => Kw::StaticAssert,
        "constexpr" => Kw::Constexpr,
        "using" => Kw::Using,
        "namespace" => Kw::Namespace,
        "decltype" => Kw::Decltype,
        "auto" => Kw::Auto,
        "this" => Kw::This,
        "explicit" => Kw::Explicit,
        "friend" => Kw::Friend,
        "noexcept" => Kw::Noexcept,
        "mutable" => Kw::Mutable,
        "operator" => Kw::Operator,
        "new" => Kw::New,
        "delete" => Kw::Delete,
        "template" => Kw::Template,
        "static_cast" | "reinterpret_cast" | "const_cast" => Kw::NamedCast,
        "typename" => Kw::Typename,
        // A class is a struct whose members are private until a specifier
        // says otherwise; access is not checked yet.
        "class" => Kw::Struct,
        // `private` is also an address space; before a `:` in a class body
        // it is the access specifier (see `Parser::access_specifier`).
        "public" | "protected" => Kw::AccessSpecifier,
        // `alignas(n)`: GNU's `aligned(n)`, where attributes go.
        "alignas" => Kw::Attribute,
        "and" | "and_eq" | "asm" | "bitand" | "bitor" | "catch" | "char8_t" | "char16_t"
        | "char32_t" | "compl" | "concept" | "consteval" | "constinit" | "co_await"
        | "co_return" | "co_yield" | "dynamic_cast" | "export" | "not" | "not_eq" | "or"
        | "or_eq" | "requires" | "thread_local" | "throw" | "try" | "typeid" | "virtual"
        | "wchar_t" | "xor" | "xor_eq" => Kw::CxxUnsupported,
        _ => return None,
    })
}

/// The class of identifier `word`.
fn keyword(word: &str) -> Kw {
    match word {
        "typedef" => Kw::Storage(StorageClass::Typedef),
        "extern" => Kw::Storage(StorageClass::Extern),
        "static" => Kw::Storage(StorageClass::Static),
        "auto" => Kw::Storage(StorageClass::Auto),
        "register" => Kw::Storage(StorageClass::Register),
        "const" | "__const" => Kw::Const,
        "volatile" | "__volatile" => Kw::Volatile,
        "restrict" | "__restrict" => Kw::Restrict,
        "__global" | "global" => Kw::AddressSpace(AddressSpace::Global),
        "__local" | "local" => Kw::AddressSpace(AddressSpace::Local),
        "__constant" | "constant" => Kw::AddressSpace(AddressSpace::Constant),
        "__private" | "private" => Kw::AddressSpace(AddressSpace::Private),
        "__generic" | "generic" => Kw::AddressSpace(AddressSpace::Generic),
        "__kernel" | "kernel" => Kw::Kernel,
        "inline" | "__inline" => Kw::Inline,
        "__inline__" => Kw::GnuInline,
        "__read_only" | "read_only" | "__write_only" | "write_only" | "__read_write"
        | "read_write" => Kw::Access,
        "__attribute__" | "__attribute" => Kw::Attribute,
        "void" => Kw::Scalar(ScalarWord::Void),
        "bool" | "_Bool" => Kw::Scalar(ScalarWord::Bool),
        "char" => Kw::Scalar(ScalarWord::Char),
        "short" => Kw::Scalar(ScalarWord::Short),
        "int" => Kw::Scalar(ScalarWord::Int),
        "long" => Kw::Scalar(ScalarWord::Long),
        "signed" | "__signed" | "__signed__" => Kw::Scalar(ScalarWord::Signed),
        "unsigned" => Kw::Scalar(ScalarWord::Unsigned),
        "half" => Kw::Scalar(ScalarWord::Half),
        "float" => Kw::Scalar(ScalarWord::Float),
        "double" => Kw::Scalar(ScalarWord::Double),
        "struct" => Kw::Struct,
        "union" => Kw::Union,
        "enum" => Kw::Enum,
        "if" => Kw::If,
        "else" => Kw::Else,
        "while" => Kw::While,
        "do" => Kw::Do,
        "for" => Kw::For,
        "switch" => Kw::Switch,
        "case" => Kw::Case,
        "default" => Kw::Default,
        "break" => Kw::Break,
        "continue" => Kw::Continue,
        "return" => Kw::Return,
        "goto" => Kw::Goto,
        "sizeof" => Kw::Sizeof,
        "vec_step" => Kw::VecStep,
        "_Alignof" | "__alignof__" | "__alignof" => Kw::Alignof,
        "__builtin_offsetof" => Kw::Offsetof,
        "_Static_assert" => Kw::StaticAssert,
        _ if types::is_builtin_type_name(word) => Kw::BuiltinType,
        _ => Kw::Name,
    }
}

impl Kw {
    /// Can this word start a type name (in a cast or `sizeof`)? Typedef
    /// names can too; the parser checks those separately.
    pub(super) fn starts_type(self) -> bool {
        matches!(
            self,
            Kw::BuiltinType
                | Kw::Decltype
                | Kw::Typename
                | Kw::Const
                | Kw::Volatile
                | Kw::Restrict
                | Kw::AddressSpace(_)
                | Kw::Access
                | Kw::Attribute
                | Kw::Scalar(_)
                | Kw::Struct
                | Kw::Union
                | Kw::Enum
        )
    }
}

pub(super) fn add_scalar_word(words: &mut ScalarWords, word: ScalarWord) {
    match word {
        ScalarWord::Void => words.void = true,
        ScalarWord::Bool => words.bool_ = true,
        ScalarWord::Char => words.char_ = true,
        ScalarWord::Short => words.short = true,
        ScalarWord::Int => words.int = true,
        ScalarWord::Long => words.long += 1,
        ScalarWord::Signed => words.signed = true,
        ScalarWord::Unsigned => words.unsigned = true,
        ScalarWord::Half => words.half = true,
        ScalarWord::Float => words.float = true,
        ScalarWord::Double => words.double = true,
    }
}

/// Sets the qualifier `kw` names; false when it names none.
pub(super) fn add_qualifier(q: &mut Qualifiers, kw: Kw) -> bool {
    match kw {
        Kw::Const => q.is_const = true,
        Kw::Volatile => q.is_volatile = true,
        Kw::Restrict => q.is_restrict = true,
        Kw::AddressSpace(space) => q.address_space = Some(space),
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::{keyword, Kw, ScalarWord};
    use crate::ast::{AddressSpace, StorageClass};

    #[test]
    fn keyword_classes() {
        let keywords = [
            ("typedef", Kw::Storage(StorageClass::Typedef)),
            ("extern", Kw::Storage(StorageClass::Extern)),
            ("static", Kw::Storage(StorageClass::Static)),
            ("auto", Kw::Storage(StorageClass::Auto)),
            ("register", Kw::Storage(StorageClass::Register)),
            ("const", Kw::Const),
            ("__const", Kw::Const),
            ("volatile", Kw::Volatile),
            ("__volatile", Kw::Volatile),
            ("restrict", Kw::Restrict),
            ("__restrict", Kw::Restrict),
            ("__global", Kw::AddressSpace(AddressSpace::Global)),
            ("global", Kw::AddressSpace(AddressSpace::Global)),
            ("__local", Kw::AddressSpace(AddressSpace::Local)),
            ("local", Kw::AddressSpace(AddressSpace::Local)),
            ("__constant", Kw::AddressSpace(AddressSpace::Constant)),
            ("constant", Kw::AddressSpace(AddressSpace::Constant)),
            ("__private", Kw::AddressSpace(AddressSpace::Private)),
            ("private", Kw::AddressSpace(AddressSpace::Private)),
            ("__generic", Kw::AddressSpace(AddressSpace::Generic)),
            ("generic", Kw::AddressSpace(AddressSpace::Generic)),
            ("__kernel", Kw::Kernel),
            ("kernel", Kw::Kernel),
            ("inline", Kw::Inline),
            ("__inline", Kw::Inline),
            ("__inline__", Kw::GnuInline),
            ("__read_only", Kw::Access),
            ("read_only", Kw::Access),
            ("__write_only", Kw::Access),
            ("write_only", Kw::Access),
            ("__read_write", Kw::Access),
            ("read_write", Kw::Access),
            ("__attribute__", Kw::Attribute),
            ("__attribute", Kw::Attribute),
            ("void", Kw::Scalar(ScalarWord::Void)),
            ("bool", Kw::Scalar(ScalarWord::Bool)),
            ("_Bool", Kw::Scalar(ScalarWord::Bool)),
            ("char", Kw::Scalar(ScalarWord::Char)),
            ("short", Kw::Scalar(ScalarWord::Short)),
            ("int", Kw::Scalar(ScalarWord::Int)),
            ("long", Kw::Scalar(ScalarWord::Long)),
            ("signed", Kw::Scalar(ScalarWord::Signed)),
            ("__signed", Kw::Scalar(ScalarWord::Signed)),
            ("__signed__", Kw::Scalar(ScalarWord::Signed)),
            ("unsigned", Kw::Scalar(ScalarWord::Unsigned)),
            ("half", Kw::Scalar(ScalarWord::Half)),
            ("float", Kw::Scalar(ScalarWord::Float)),
            ("double", Kw::Scalar(ScalarWord::Double)),
            ("struct", Kw::Struct),
            ("union", Kw::Union),
            ("enum", Kw::Enum),
            ("if", Kw::If),
            ("else", Kw::Else),
            ("while", Kw::While),
            ("do", Kw::Do),
            ("for", Kw::For),
            ("switch", Kw::Switch),
            ("case", Kw::Case),
            ("default", Kw::Default),
            ("break", Kw::Break),
            ("continue", Kw::Continue),
            ("return", Kw::Return),
            ("goto", Kw::Goto),
            ("sizeof", Kw::Sizeof),
            ("vec_step", Kw::VecStep),
            ("_Alignof", Kw::Alignof),
            ("__alignof__", Kw::Alignof),
            ("__alignof", Kw::Alignof),
            ("__builtin_offsetof", Kw::Offsetof),
        ];
        for (word, kw) in keywords {
            assert_eq!(keyword(word), kw, "{word}");
        }
        assert_eq!(keyword("__attributes"), Kw::Name);
        assert_eq!(keyword("float4"), Kw::BuiltinType);
        assert_eq!(keyword("size_t"), Kw::BuiltinType);
        assert_eq!(keyword("gid"), Kw::Name);
    }
}
