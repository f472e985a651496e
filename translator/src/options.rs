//! The OpenCL build option string (`clBuildProgram`, `clCompileProgram`,
//! `clvulkan compile`): shell-like tokenising and parsing into
//! [`BuildOptions`], with a typed [`OptionError`] for anything the OpenCL 3.0
//! API specification (section 5.8.6, "Compiler Options") does not allow, so
//! the runtime can answer `CL_INVALID_BUILD_OPTIONS`.

use std::fmt;
use std::path::PathBuf;

/// An OpenCL C language version, as chosen by `-cl-std=`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ClStd {
    Cl1_0,
    Cl1_1,
    Cl1_2,
    Cl2_0,
    Cl3_0,
}

impl ClStd {
    /// `(major, minor)`.
    pub fn version(self) -> (u32, u32) {
        match self {
            ClStd::Cl1_0 => (1, 0),
            ClStd::Cl1_1 => (1, 1),
            ClStd::Cl1_2 => (1, 2),
            ClStd::Cl2_0 => (2, 0),
            ClStd::Cl3_0 => (3, 0),
        }
    }

    /// The value of `__OPENCL_C_VERSION__` for this version (100 ... 300).
    pub fn macro_value(self) -> u32 {
        let (major, minor) = self.version();
        major * 100 + minor * 10
    }

    /// Parses the part after `-cl-std=`. The spec spells it `CL1.2`; clang
    /// also takes lower case, and scripts written against clang do too.
    fn parse(value: &str) -> Option<Self> {
        let (prefix, number) = (value.get(..2)?, value.get(2..)?);
        if !prefix.eq_ignore_ascii_case("cl") {
            return None;
        }
        Some(match number {
            "1.0" => ClStd::Cl1_0,
            "1.1" => ClStd::Cl1_1,
            "1.2" => ClStd::Cl1_2,
            "2.0" => ClStd::Cl2_0,
            "3.0" => ClStd::Cl3_0,
            _ => return None,
        })
    }
}

/// A C++ for OpenCL version, as chosen by `-cl-std=CLC++...`. Each is C++17
/// on the OpenCL C version [`CxxStd::base`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum CxxStd {
    /// C++ for OpenCL 1.0 (`CLC++`, `CLC++1.0`), on OpenCL C 2.0.
    Cxx1_0,
    /// C++ for OpenCL 2021 (`CLC++2021`), on OpenCL C 3.0.
    Cxx2021,
}

impl CxxStd {
    /// The OpenCL C version whose features and built-ins it has.
    pub fn base(self) -> ClStd {
        match self {
            CxxStd::Cxx1_0 => ClStd::Cl2_0,
            CxxStd::Cxx2021 => ClStd::Cl3_0,
        }
    }

    /// The value of `__OPENCL_CPP_VERSION__`.
    pub fn macro_value(self) -> u32 {
        match self {
            CxxStd::Cxx1_0 => 100,
            CxxStd::Cxx2021 => 202100,
        }
    }

    /// Parses the part after `-cl-std=`, in any case, as clang does.
    fn parse(value: &str) -> Option<Self> {
        match value.to_ascii_uppercase().as_str() {
            "CLC++" | "CLC++1.0" => Some(CxxStd::Cxx1_0),
            "CLC++2021" => Some(CxxStd::Cxx2021),
            _ => None,
        }
    }
}

/// A `-D` or `-U` option; they are applied in command-line order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MacroOption {
    /// `-D name` (value `1`) or `-D name=value`. `name` may carry a parameter
    /// list (`-D 'F(x)=x*2'`), which the preprocessor checks.
    Define {
        name: String,
        value: String,
    },
    Undefine(String),
}

/// Everything a build option string can ask for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct BuildOptions {
    pub macros: Vec<MacroOption>,
    pub include_dirs: Vec<PathBuf>,
    /// The OpenCL C version; for C++ for OpenCL, the one it builds on.
    pub cl_std: Option<ClStd>,
    /// C++ for OpenCL, when `-cl-std=` chose it.
    pub cxx: Option<CxxStd>,
    pub fast_relaxed_math: bool,
    pub mad_enable: bool,
    pub finite_math_only: bool,
    pub no_signed_zeros: bool,
    pub denorms_are_zero: bool,
    /// `-cl-opt-disable`: no loop is unrolled (`unroll`).
    pub opt_disable: bool,
    pub kernel_arg_info: bool,
    pub unsafe_math_optimizations: bool,
    pub single_precision_constant: bool,
    pub fp32_correctly_rounded_divide_sqrt: bool,
    pub uniform_work_group_size: bool,
    pub no_subgroup_ifp: bool,
    /// `-g`.
    pub debug_info: bool,
    /// `-w`.
    pub suppress_warnings: bool,
    /// `-Werror`.
    pub warnings_are_errors: bool,
    /// Set by [`crate::unit::link`], never by an option string: the source
    /// is several linked units, whose identical struct, union and enum
    /// definitions (from a header they share) are one definition.
    pub linking: bool,
}

/// Why an option string was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionErrorKind {
    /// Not an option this implementation knows.
    Unknown,
    /// An option that takes an argument (`-D`, `-I`, `-cl-std=`) had none.
    MissingArgument,
    /// The argument is not acceptable; `reason` says why.
    InvalidValue { value: String, reason: &'static str },
    /// A `'` or `"` is never closed.
    UnterminatedQuote,
}

/// A malformed build option string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    /// The offending option as written (after unquoting).
    pub option: String,
    pub kind: OptionErrorKind,
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            OptionErrorKind::Unknown => write!(f, "unknown option '{}'", self.option),
            OptionErrorKind::MissingArgument => {
                write!(f, "missing argument to '{}'", self.option)
            }
            OptionErrorKind::InvalidValue { value, reason } => {
                write!(f, "invalid value '{value}' for '{}': {reason}", self.option)
            }
            OptionErrorKind::UnterminatedQuote => {
                write!(f, "unterminated quote in '{}'", self.option)
            }
        }
    }
}

impl std::error::Error for OptionError {}

fn error(option: &str, kind: OptionErrorKind) -> OptionError {
    OptionError {
        option: option.to_owned(),
        kind,
    }
}

/// Splits like a POSIX shell would, minus expansions: `'...'` is literal,
/// `"..."` honours `\"` and `\\`, and an unquoted backslash escapes only
/// whitespace, quotes and backslashes, so Windows-style paths survive.
fn split_args(s: &str) -> Result<Vec<String>, OptionError> {
    let mut args = Vec::new();
    let mut current = String::new();
    let mut in_arg = false;
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_arg {
                    args.push(std::mem::take(&mut current));
                    in_arg = false;
                }
            }
            '\'' => {
                in_arg = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => current.push(c),
                        None => return Err(error(&current, OptionErrorKind::UnterminatedQuote)),
                    }
                }
            }
            '"' => {
                in_arg = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.peek() {
                            Some(&e @ ('"' | '\\')) => {
                                current.push(e);
                                chars.next();
                            }
                            _ => current.push('\\'),
                        },
                        Some(c) => current.push(c),
                        None => return Err(error(&current, OptionErrorKind::UnterminatedQuote)),
                    }
                }
            }
            '\\' => {
                in_arg = true;
                match chars.peek() {
                    Some(&e) if e.is_whitespace() || matches!(e, '"' | '\'' | '\\') => {
                        current.push(e);
                        chars.next();
                    }
                    _ => current.push('\\'),
                }
            }
            c => {
                in_arg = true;
                current.push(c);
            }
        }
    }
    if in_arg {
        args.push(current);
    }
    Ok(args)
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_'
}

fn is_ident_continue(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// The identifier a `-D`/`-U` name starts with; for `-D`, a parameter list
/// may follow it directly.
fn check_macro_name(option: &str, name: &str, allow_params: bool) -> Result<(), OptionError> {
    let invalid = |reason| {
        error(
            option,
            OptionErrorKind::InvalidValue {
                value: name.to_owned(),
                reason,
            },
        )
    };
    let mut chars = name.chars();
    if !chars.next().is_some_and(is_ident_start) {
        return Err(invalid("a macro name must start with a letter or '_'"));
    }
    let rest = name.trim_start_matches(is_ident_continue);
    if rest.is_empty() || (allow_params && rest.starts_with('(')) {
        Ok(())
    } else {
        Err(invalid("a macro name must be an identifier"))
    }
}

impl BuildOptions {
    /// Parses an OpenCL build option string.
    pub fn parse(s: &str) -> Result<Self, OptionError> {
        let args = split_args(s)?;
        let mut o = BuildOptions::default();
        let mut i = 0;
        while i < args.len() {
            let arg = args[i].as_str();
            i += 1;
            // Options with an argument, either attached or as the next word.
            if let Some(attached) = arg.strip_prefix("-D").or_else(|| arg.strip_prefix("-U")) {
                let define = arg.starts_with("-D");
                let option = &arg[..2];
                let value = if attached.is_empty() {
                    let Some(next) = args.get(i) else {
                        return Err(error(option, OptionErrorKind::MissingArgument));
                    };
                    i += 1;
                    next.as_str()
                } else {
                    attached
                };
                if define {
                    let (name, value) = value.split_once('=').unwrap_or((value, "1"));
                    check_macro_name(option, name, true)?;
                    o.macros.push(MacroOption::Define {
                        name: name.to_owned(),
                        value: value.to_owned(),
                    });
                } else {
                    check_macro_name(option, value, false)?;
                    o.macros.push(MacroOption::Undefine(value.to_owned()));
                }
                continue;
            }
            if let Some(attached) = arg.strip_prefix("-I") {
                let dir = if attached.is_empty() {
                    let Some(next) = args.get(i) else {
                        return Err(error("-I", OptionErrorKind::MissingArgument));
                    };
                    i += 1;
                    next.as_str()
                } else {
                    attached
                };
                if dir.is_empty() {
                    return Err(error(
                        "-I",
                        OptionErrorKind::InvalidValue {
                            value: String::new(),
                            reason: "the include directory is empty",
                        },
                    ));
                }
                o.include_dirs.push(PathBuf::from(dir));
                continue;
            }
            if let Some(value) = arg.strip_prefix("-cl-std=") {
                if value.is_empty() {
                    return Err(error("-cl-std=", OptionErrorKind::MissingArgument));
                }
                if let Some(cxx) = CxxStd::parse(value) {
                    o.cl_std = Some(cxx.base());
                    o.cxx = Some(cxx);
                    continue;
                }
                let Some(std) = ClStd::parse(value) else {
                    return Err(error(
                        "-cl-std=",
                        OptionErrorKind::InvalidValue {
                            value: value.to_owned(),
                            reason: "expected CL1.0, CL1.1, CL1.2, CL2.0, CL3.0, CLC++, CLC++1.0 or CLC++2021",
                        },
                    ));
                };
                o.cl_std = Some(std);
                o.cxx = None;
                continue;
            }
            match arg {
                "-cl-single-precision-constant" => o.single_precision_constant = true,
                "-cl-denorms-are-zero" => o.denorms_are_zero = true,
                "-cl-fp32-correctly-rounded-divide-sqrt" => {
                    o.fp32_correctly_rounded_divide_sqrt = true
                }
                "-cl-opt-disable" => o.opt_disable = true,
                "-cl-mad-enable" => o.mad_enable = true,
                "-cl-no-signed-zeros" => o.no_signed_zeros = true,
                // The spec defines these two as including the weaker
                // options, so later stages only need to test one flag.
                "-cl-unsafe-math-optimizations" => {
                    o.unsafe_math_optimizations = true;
                    o.no_signed_zeros = true;
                    o.mad_enable = true;
                }
                "-cl-finite-math-only" => o.finite_math_only = true,
                "-cl-fast-relaxed-math" => {
                    o.fast_relaxed_math = true;
                    o.finite_math_only = true;
                    o.unsafe_math_optimizations = true;
                    o.no_signed_zeros = true;
                    o.mad_enable = true;
                }
                "-cl-uniform-work-group-size" => o.uniform_work_group_size = true,
                "-cl-no-subgroup-ifp" => o.no_subgroup_ifp = true,
                "-cl-kernel-arg-info" => o.kernel_arg_info = true,
                // OpenCL 1.0 only, and only ever a hint: accepted so old
                // host code keeps building.
                "-cl-strict-aliasing" => {}
                "-g" => o.debug_info = true,
                "-w" => o.suppress_warnings = true,
                "-Werror" => o.warnings_are_errors = true,
                "-cl-std" => return Err(error("-cl-std=", OptionErrorKind::MissingArgument)),
                _ => return Err(error(arg, OptionErrorKind::Unknown)),
            }
        }
        Ok(o)
    }

    /// The language version to compile for: `-cl-std=` if given, else the
    /// highest OpenCL C 1.x version the device supports, as the spec
    /// requires; that is 1.2 here.
    pub fn effective_cl_std(&self) -> ClStd {
        self.cl_std.unwrap_or(ClStd::Cl1_2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn define(name: &str, value: &str) -> MacroOption {
        MacroOption::Define {
            name: name.into(),
            value: value.into(),
        }
    }

    #[test]
    fn empty_and_whitespace() {
        assert_eq!(BuildOptions::parse("").unwrap(), BuildOptions::default());
        assert_eq!(
            BuildOptions::parse("  \t\n ").unwrap(),
            BuildOptions::default()
        );
        assert_eq!(BuildOptions::default().effective_cl_std(), ClStd::Cl1_2);
    }

    #[test]
    fn defines_and_undefines_in_order() {
        let o = BuildOptions::parse("-DX -D Y=2 -DZ=a=b -UX -U Y -D W= -D 'F(a)=a*2'").unwrap();
        assert_eq!(
            o.macros,
            vec![
                define("X", "1"),
                define("Y", "2"),
                define("Z", "a=b"),
                MacroOption::Undefine("X".into()),
                MacroOption::Undefine("Y".into()),
                define("W", ""),
                define("F(a)", "a*2"),
            ]
        );
    }

    #[test]
    fn quoting() {
        let o =
            BuildOptions::parse(r#"-D "MSG=hello world" -DQ='"x y"' -I "/a b" -I/c\ d"#).unwrap();
        assert_eq!(
            o.macros,
            vec![define("MSG", "hello world"), define("Q", "\"x y\"")]
        );
        assert_eq!(
            o.include_dirs,
            vec![PathBuf::from("/a b"), PathBuf::from("/c d")]
        );
        let o = BuildOptions::parse(r#"-D"S=\"q\"" -DP=C:\dir"#).unwrap();
        assert_eq!(o.macros, vec![define("S", "\"q\""), define("P", r"C:\dir")]);
    }

    #[test]
    fn include_dirs() {
        let o = BuildOptions::parse("-I inc -Isrc/include").unwrap();
        assert_eq!(
            o.include_dirs,
            vec![PathBuf::from("inc"), PathBuf::from("src/include")]
        );
    }

    #[test]
    fn cl_std_values() {
        for (s, v) in [
            ("CL1.0", ClStd::Cl1_0),
            ("CL1.1", ClStd::Cl1_1),
            ("CL1.2", ClStd::Cl1_2),
            ("CL2.0", ClStd::Cl2_0),
            ("CL3.0", ClStd::Cl3_0),
            ("cl3.0", ClStd::Cl3_0),
        ] {
            let o = BuildOptions::parse(&format!("-cl-std={s}")).unwrap();
            assert_eq!(o.cl_std, Some(v));
            assert_eq!(o.effective_cl_std(), v);
        }
        for (value, cxx, base) in [
            ("CLC++", CxxStd::Cxx1_0, ClStd::Cl2_0),
            ("clc++1.0", CxxStd::Cxx1_0, ClStd::Cl2_0),
            ("CLC++2021", CxxStd::Cxx2021, ClStd::Cl3_0),
        ] {
            let o = BuildOptions::parse(&format!("-cl-std={value}")).unwrap();
            assert_eq!((o.cxx, o.effective_cl_std()), (Some(cxx), base), "{value}");
        }
        // The last -cl-std= wins, C++ or not.
        let o = BuildOptions::parse("-cl-std=CLC++ -cl-std=CL3.0").unwrap();
        assert_eq!((o.cxx, o.cl_std), (None, Some(ClStd::Cl3_0)));
        assert_eq!(ClStd::Cl3_0.version(), (3, 0));
        assert_eq!(ClStd::Cl1_1.macro_value(), 110);
        // The last one wins, as with clang.
        let o = BuildOptions::parse("-cl-std=CL2.0 -cl-std=CL3.0").unwrap();
        assert_eq!(o.cl_std, Some(ClStd::Cl3_0));
    }

    #[test]
    fn flags() {
        let o = BuildOptions::parse(
            "-cl-single-precision-constant -cl-denorms-are-zero \
             -cl-fp32-correctly-rounded-divide-sqrt -cl-opt-disable -cl-mad-enable \
             -cl-no-signed-zeros -cl-finite-math-only -cl-uniform-work-group-size \
             -cl-no-subgroup-ifp -cl-kernel-arg-info -cl-strict-aliasing -g -w -Werror",
        )
        .unwrap();
        assert!(o.single_precision_constant);
        assert!(o.denorms_are_zero);
        assert!(o.fp32_correctly_rounded_divide_sqrt);
        assert!(o.opt_disable);
        assert!(o.mad_enable);
        assert!(o.no_signed_zeros);
        assert!(o.finite_math_only);
        assert!(o.uniform_work_group_size);
        assert!(o.no_subgroup_ifp);
        assert!(o.kernel_arg_info);
        assert!(o.debug_info);
        assert!(o.suppress_warnings);
        assert!(o.warnings_are_errors);
        assert!(!o.fast_relaxed_math);
        assert!(!o.unsafe_math_optimizations);
    }

    #[test]
    fn fast_relaxed_math_implies() {
        let o = BuildOptions::parse("-cl-fast-relaxed-math").unwrap();
        assert!(o.fast_relaxed_math);
        assert!(o.finite_math_only);
        assert!(o.unsafe_math_optimizations);
        assert!(o.no_signed_zeros);
        assert!(o.mad_enable);
        let o = BuildOptions::parse("-cl-unsafe-math-optimizations").unwrap();
        assert!(o.unsafe_math_optimizations && o.no_signed_zeros && o.mad_enable);
        assert!(!o.finite_math_only && !o.fast_relaxed_math);
    }

    #[test]
    fn errors() {
        let kind = |s: &str| BuildOptions::parse(s).unwrap_err();
        assert_eq!(
            kind("-cl-foo"),
            OptionError {
                option: "-cl-foo".into(),
                kind: OptionErrorKind::Unknown
            }
        );
        assert_eq!(kind("-D").kind, OptionErrorKind::MissingArgument);
        assert_eq!(kind("-DX -U").kind, OptionErrorKind::MissingArgument);
        assert_eq!(kind("-I").kind, OptionErrorKind::MissingArgument);
        assert_eq!(kind("-cl-std").kind, OptionErrorKind::MissingArgument);
        assert_eq!(kind("-cl-std=").kind, OptionErrorKind::MissingArgument);
        assert!(matches!(
            kind("-cl-std=CL9.9").kind,
            OptionErrorKind::InvalidValue { .. }
        ));
        assert!(matches!(
            kind("-cl-std=CLC++17").kind,
            OptionErrorKind::InvalidValue { .. }
        ));
        assert!(matches!(
            kind("-D 1X").kind,
            OptionErrorKind::InvalidValue { .. }
        ));
        assert!(matches!(
            kind("-D=3").kind,
            OptionErrorKind::InvalidValue { .. }
        ));
        assert!(matches!(
            kind("-UF(x)").kind,
            OptionErrorKind::InvalidValue { .. }
        ));
        assert!(matches!(
            kind("-D X-Y").kind,
            OptionErrorKind::InvalidValue { .. }
        ));
        assert_eq!(kind("-D 'X=1").kind, OptionErrorKind::UnterminatedQuote);
        assert_eq!(kind("-D \"X").kind, OptionErrorKind::UnterminatedQuote);
        assert_eq!(kind("-I ''").option, "-I");
        // A lone word that is not an option.
        assert_eq!(kind("foo").kind, OptionErrorKind::Unknown);
    }

    #[test]
    fn error_messages() {
        let e = BuildOptions::parse("-cl-std=CL9.9").unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid value 'CL9.9' for '-cl-std=': expected CL1.0, CL1.1, CL1.2, CL2.0, CL3.0, CLC++, CLC++1.0 or CLC++2021"
        );
        let e = BuildOptions::parse("-x").unwrap_err();
        assert_eq!(e.to_string(), "unknown option '-x'");
        let e = BuildOptions::parse("-D").unwrap_err();
        assert_eq!(e.to_string(), "missing argument to '-D'");
        let boxed: Box<dyn std::error::Error> = Box::new(e);
        assert!(!boxed.to_string().is_empty());
    }
}
