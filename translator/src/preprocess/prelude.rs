//! The macros every build starts with: the OpenCL C predefined macros and
//! constants for the options and device (run as a `<built-in>` file), the
//! `-D`/`-U` options (run as `<command line>`), and the cache that keeps
//! the table the predefined macros leave between builds.

use std::sync::{Arc, Mutex, PoisonError};

use super::macros::Macro;
use super::Preprocessor;
use crate::caps::DeviceCaps;
use crate::diagnostic::FileId;
use crate::lexer::{FrozenInterner, Interner};
use crate::options::{BuildOptions, ClStd, CxxStd, MacroOption};

/// OpenCL C 3.0 section 6.13 (and C99 6.10.8) macros with fixed values.
/// `FP_FAST_FMA`/`FP_FAST_FMAF` are deliberately absent: the device does not
/// promise a fast fma yet.
const PREDEFINED: &[(&str, &str)] = &[
    ("__STDC__", "1"),
    ("__STDC_HOSTED__", "0"),
    // OpenCL C is based on C99; clang reports this in OpenCL mode too.
    ("__STDC_VERSION__", "199901L"),
    ("__OPENCL_VERSION__", "300"),
    ("CL_VERSION_1_0", "100"),
    ("CL_VERSION_1_1", "110"),
    ("CL_VERSION_1_2", "120"),
    ("CL_VERSION_2_0", "200"),
    ("CL_VERSION_3_0", "300"),
    ("__ENDIAN_LITTLE__", "1"),
    (
        "__kernel_exec(X, typen)",
        "__kernel __attribute__((work_group_size_hint(X, 1, 1))) \
         __attribute__((vec_type_hint(typen)))",
    ),
    (
        "kernel_exec(X, typen)",
        "__kernel __attribute__((work_group_size_hint(X, 1, 1))) \
         __attribute__((vec_type_hint(typen)))",
    ),
];

/// The `half` constants of OpenCL C 6.15.2.3 (math) and 6.1.1 (`<float.h>`
/// values), defined only where `cl_khr_fp16` is: spelled with the `h`
/// suffix, so each has type `half` as the spec gives it.
const HALF_CONSTANTS: &[(&str, &str)] = &[
    ("HALF_DIG", "3"),
    ("HALF_MANT_DIG", "11"),
    ("HALF_MAX_10_EXP", "+4"),
    ("HALF_MAX_EXP", "+16"),
    ("HALF_MIN_10_EXP", "-4"),
    ("HALF_MIN_EXP", "-13"),
    ("HALF_RADIX", "2"),
    ("HALF_MAX", "0x1.ffcp15h"),
    ("HALF_MIN", "0x1.0p-14h"),
    ("HALF_EPSILON", "0x1.0p-10h"),
    ("M_E_H", "2.71828182845904523536028747135h"),
    ("M_LOG2E_H", "1.44269504088896340735992468100h"),
    ("M_LOG10E_H", "0.434294481903251827651128918917h"),
    ("M_LN2_H", "0.693147180559945309417232121458h"),
    ("M_LN10_H", "2.30258509299404568401799145468h"),
    ("M_PI_H", "3.14159265358979323846264338328h"),
    ("M_PI_2_H", "1.57079632679489661923132169164h"),
    ("M_PI_4_H", "0.785398163397448309615660845820h"),
    ("M_1_PI_H", "0.318309886183790671537767526745h"),
    ("M_2_PI_H", "0.636619772367581343075535053490h"),
    ("M_2_SQRTPI_H", "1.12837916709551257389615890312h"),
    ("M_SQRT2_H", "1.41421356237309504880168872421h"),
    ("M_SQRT1_2_H", "0.707106781186547524400844362105h"),
];

/// Macros of OpenCL C that C++ has as keywords or spells otherwise.
const C_ONLY_MACROS: &[&str] = &["NULL", "true", "false"];

/// Predefined macros that C has in a header rather than built in: kernels
/// written for compilers without them define their own, which replaces
/// ours without the "macro redefined" warning (that `-Werror` would make
/// fatal), as it would have with the header left out.
pub(super) const HEADER_MACROS: &[&str] = &["offsetof"];

/// `#define` lines for the predefined macros, run as a `<built-in>` file.
/// The constants OpenCL C defines as macros (6.15.2.3 math constants, and
/// the `<limits.h>`/`<float.h>` values of 6.1.1), spelled so that each has
/// the type the spec gives it. Infinity and NaN have no literal, so they
/// are constant divisions.
const LANGUAGE_CONSTANTS: &[(&str, &str)] = &[
    ("NULL", "((void*)0)"),
    // OpenCL C 6.1.1: "true expands to the integer constant 1 and false
    // expands to the integer constant 0", as C99's <stdbool.h> spells them.
    ("true", "1"),
    ("false", "0"),
    // clang's <stddef.h> macro, which OpenCL C kernels use as in C (see
    // HEADER_MACROS).
    ("offsetof(type, member)", "__builtin_offsetof(type, member)"),
    ("CHAR_BIT", "8"),
    ("SCHAR_MAX", "127"),
    ("SCHAR_MIN", "(-127-1)"),
    ("CHAR_MAX", "SCHAR_MAX"),
    ("CHAR_MIN", "SCHAR_MIN"),
    ("UCHAR_MAX", "255"),
    ("SHRT_MAX", "32767"),
    ("SHRT_MIN", "(-32767-1)"),
    ("USHRT_MAX", "65535"),
    ("INT_MAX", "2147483647"),
    ("INT_MIN", "(-2147483647-1)"),
    ("UINT_MAX", "0xffffffffU"),
    ("LONG_MAX", "0x7fffffffffffffffL"),
    ("LONG_MIN", "(-0x7fffffffffffffffL-1)"),
    ("ULONG_MAX", "0xffffffffffffffffUL"),
    ("FLT_DIG", "6"),
    ("FLT_MANT_DIG", "24"),
    ("FLT_MAX_10_EXP", "+38"),
    ("FLT_MAX_EXP", "+128"),
    ("FLT_MIN_10_EXP", "-37"),
    ("FLT_MIN_EXP", "-125"),
    ("FLT_RADIX", "2"),
    ("FLT_MAX", "0x1.fffffep127f"),
    ("FLT_MIN", "0x1.0p-126f"),
    ("FLT_EPSILON", "0x1.0p-23f"),
    ("DBL_DIG", "15"),
    ("DBL_RADIX", "2"),
    ("DBL_MANT_DIG", "53"),
    ("DBL_MAX_10_EXP", "+308"),
    ("DBL_MAX_EXP", "+1024"),
    ("DBL_MIN_10_EXP", "-307"),
    ("DBL_MIN_EXP", "-1021"),
    ("DBL_MAX", "0x1.fffffffffffffp1023"),
    ("DBL_MIN", "0x1.0p-1022"),
    ("DBL_EPSILON", "0x1.0p-52"),
    ("MAXFLOAT", "0x1.fffffep127f"),
    // What `ilogb` returns for 0 and NaN (lower/math/exact.rs).
    ("FP_ILOGB0", "(-2147483647-1)"),
    ("FP_ILOGBNAN", "2147483647"),
    ("HUGE_VALF", "(1.0f / 0.0f)"),
    ("INFINITY", "(1.0f / 0.0f)"),
    ("NAN", "(0.0f / 0.0f)"),
    ("HUGE_VAL", "(1.0 / 0.0)"),
    ("M_E_F", "2.71828174591064f"),
    ("M_LOG2E_F", "1.44269502162933f"),
    ("M_LOG10E_F", "0.43429449200630f"),
    ("M_LN2_F", "0.69314718246460f"),
    ("M_LN10_F", "2.30258512496948f"),
    ("M_PI_F", "3.14159274101257f"),
    ("M_PI_2_F", "1.57079637050629f"),
    ("M_PI_4_F", "0.78539818525314f"),
    ("M_1_PI_F", "0.31830987334251f"),
    ("M_2_PI_F", "0.63661974668503f"),
    ("M_2_SQRTPI_F", "1.12837922573090f"),
    ("M_SQRT2_F", "1.41421353816986f"),
    ("M_SQRT1_2_F", "0.70710676908493f"),
    ("M_E", "2.718281828459045090796"),
    ("M_LOG2E", "1.442695040888963387005"),
    ("M_LOG10E", "0.434294481903251816668"),
    ("M_LN2", "0.693147180559945286227"),
    ("M_LN10", "2.302585092994045901094"),
    ("M_PI", "3.141592653589793115998"),
    ("M_PI_2", "1.570796326794896557999"),
    ("M_PI_4", "0.785398163397448278999"),
    ("M_1_PI", "0.318309886183790691216"),
    ("M_2_PI", "0.636619772367581382433"),
    ("M_2_SQRTPI", "1.128379167095512558561"),
    ("M_SQRT2", "1.414213562373095145475"),
    ("M_SQRT1_2", "0.707106781186547572737"),
];

pub(super) fn predefined_source(options: &BuildOptions, caps: &DeviceCaps) -> String {
    let mut s = String::with_capacity(2048);
    let mut define = |name: &str, value: &str| {
        s.push_str("#define ");
        s.push_str(name);
        s.push(' ');
        s.push_str(value);
        s.push('\n');
    };
    for (name, value) in PREDEFINED.iter().chain(LANGUAGE_CONSTANTS) {
        // A link's text is preprocessed already: there a C++ unit's `true`
        // must stay the keyword whichever unit's language the link starts in.
        if (options.cxx.is_some() || options.linking) && C_ONLY_MACROS.contains(name) {
            continue;
        }
        define(name, value);
    }
    let std = options.effective_cl_std();
    match options.cxx {
        // As clang: C++ for OpenCL names its own version instead of
        // OpenCL C's, and `true`, `false` and `nullptr` are keywords.
        Some(cxx) => {
            define("__cplusplus", "201703L");
            define("__OPENCL_CPP_VERSION__", &cxx.macro_value().to_string());
            define(
                "__CL_CPP_VERSION_1_0__",
                &CxxStd::Cxx1_0.macro_value().to_string(),
            );
            define(
                "__CL_CPP_VERSION_2021__",
                &CxxStd::Cxx2021.macro_value().to_string(),
            );
            define("NULL", "nullptr");
        }
        None => define("__OPENCL_C_VERSION__", &std.macro_value().to_string()),
    }
    if caps.image_support {
        define("__IMAGE_SUPPORT__", "1");
        for &(name, value) in image_constants() {
            define(name, &value.to_string());
        }
    }
    if options.fast_relaxed_math {
        define("__FAST_RELAXED_MATH__", "1");
    }
    // DeviceCaps documents devices without 64-bit integers as embedded
    // profile, which section 6.13 makes visible through this macro.
    if !caps.int64 {
        define("__EMBEDDED_PROFILE__", "1");
    }
    for ext in caps.extensions() {
        define(ext, "1");
    }
    if caps.float16 {
        for (name, value) in HALF_CONSTANTS {
            define(name, value);
        }
    }
    // Feature macros are an OpenCL C 3.0 concept; earlier versions must not
    // see them (their kernels would take 3.0-only code paths).
    if std == ClStd::Cl3_0 {
        for feature in caps.features() {
            define(feature, "1");
        }
    }
    s
}

/// `-D`/`-U` as directives, in command-line order, run as `<command line>`.
pub(super) fn command_line_source(options: &BuildOptions) -> Option<String> {
    if options.macros.is_empty() {
        return None;
    }
    let mut s = String::new();
    for m in &options.macros {
        match m {
            MacroOption::Define { name, value } => {
                // A newline would end the directive and leak the rest into
                // the program.
                let value = value.replace(['\n', '\r'], " ");
                s.push_str(&format!("#define {name} {value}\n"));
            }
            MacroOption::Undefine(name) => s.push_str(&format!("#undef {name}\n")),
        }
    }
    Some(s)
}

/// The macro table the predefined macros leave, kept between builds:
/// running them is most of the front end's work on a small kernel. It
/// holds the table of the last build that ran them, for its options and
/// device. Builds on several threads may share one (a runtime keeps one per
/// device), so it holds nothing tied to a thread: the table is behind a
/// mutex, and each build copies it out.
#[derive(Default)]
pub struct PreludeCache(Mutex<Option<Arc<Prelude>>>);

/// The macro table after the predefines, for one predefined source.
struct Prelude {
    source: String,
    /// The `<built-in>` file the macros' locations point into.
    file: FileId,
    /// The symbols the table's indices and the macros' tokens refer to.
    interner: FrozenInterner,
    macros: Vec<Option<Arc<Macro>>>,
}

impl PreludeCache {
    /// The interner and macro table the predefines `text` of file
    /// `builtin` leave, copied for one build; `None` when the cache holds
    /// another table.
    pub(super) fn restore(
        &self,
        text: &str,
        builtin: FileId,
    ) -> Option<(Interner, Vec<Option<Arc<Macro>>>)> {
        let prelude = self
            .0
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .filter(|p| p.file == builtin && p.source == text)
            .cloned()?;
        Some((prelude.interner.thaw(), prelude.macros.clone()))
    }

    fn set(&self, prelude: Prelude) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(prelude));
    }
}

impl Preprocessor<'_> {
    /// Keeps the macro table after the predefines of file `builtin` in
    /// `cache`.
    pub(super) fn save_prelude(&self, builtin: FileId, cache: &PreludeCache) {
        // Only a clean run is worth keeping (the predefines never fail, but
        // a build that hit a resource limit must not leave it behind).
        if self.halted || !self.ctxs.is_empty() {
            return;
        }
        cache.set(Prelude {
            source: self.sources.file(builtin).text.clone(),
            file: builtin,
            interner: self.interner.freeze(),
            macros: self.macros.clone(),
        });
    }
}

/// The image macros of clang's `opencl-c-base.h`: sampler bits (the
/// [`crate::image::sampler`] word) and the channel orders and data types
/// (the same numbers as the API's `CL_*`).
fn image_constants() -> &'static [(&'static str, u32)] {
    use crate::image::{self as im, sampler as s};
    &[
        ("CLK_NORMALIZED_COORDS_FALSE", s::NORMALIZED_COORDS_FALSE),
        ("CLK_NORMALIZED_COORDS_TRUE", s::NORMALIZED_COORDS_TRUE),
        ("CLK_ADDRESS_NONE", s::ADDRESS_NONE),
        ("CLK_ADDRESS_CLAMP_TO_EDGE", s::ADDRESS_CLAMP_TO_EDGE),
        ("CLK_ADDRESS_CLAMP", s::ADDRESS_CLAMP),
        ("CLK_ADDRESS_REPEAT", s::ADDRESS_REPEAT),
        ("CLK_ADDRESS_MIRRORED_REPEAT", s::ADDRESS_MIRRORED_REPEAT),
        ("CLK_FILTER_NEAREST", s::FILTER_NEAREST),
        ("CLK_FILTER_LINEAR", s::FILTER_LINEAR),
        ("CLK_R", im::CL_R),
        ("CLK_A", im::CL_A),
        ("CLK_RG", im::CL_RG),
        ("CLK_RA", im::CL_RA),
        ("CLK_RGB", im::CL_RGB),
        ("CLK_RGBA", im::CL_RGBA),
        ("CLK_BGRA", im::CL_BGRA),
        ("CLK_ARGB", im::CL_ARGB),
        ("CLK_INTENSITY", im::CL_INTENSITY),
        ("CLK_LUMINANCE", im::CL_LUMINANCE),
        ("CLK_Rx", im::CL_RX),
        ("CLK_RGx", im::CL_RGX),
        ("CLK_RGBx", im::CL_RGBX),
        ("CLK_DEPTH", im::CL_DEPTH),
        ("CLK_sRGB", im::CL_SRGB),
        ("CLK_sRGBx", im::CL_SRGBX),
        ("CLK_sRGBA", im::CL_SRGBA),
        ("CLK_sBGRA", im::CL_SBGRA),
        ("CLK_ABGR", im::CL_ABGR),
        ("CLK_SNORM_INT8", im::CL_SNORM_INT8),
        ("CLK_SNORM_INT16", im::CL_SNORM_INT16),
        ("CLK_UNORM_INT8", im::CL_UNORM_INT8),
        ("CLK_UNORM_INT16", im::CL_UNORM_INT16),
        ("CLK_UNORM_SHORT_565", im::CL_UNORM_SHORT_565),
        ("CLK_UNORM_SHORT_555", im::CL_UNORM_SHORT_555),
        ("CLK_UNORM_INT_101010", im::CL_UNORM_INT_101010),
        ("CLK_SIGNED_INT8", im::CL_SIGNED_INT8),
        ("CLK_SIGNED_INT16", im::CL_SIGNED_INT16),
        ("CLK_SIGNED_INT32", im::CL_SIGNED_INT32),
        ("CLK_UNSIGNED_INT8", im::CL_UNSIGNED_INT8),
        ("CLK_UNSIGNED_INT16", im::CL_UNSIGNED_INT16),
        ("CLK_UNSIGNED_INT32", im::CL_UNSIGNED_INT32),
        ("CLK_HALF_FLOAT", im::CL_HALF_FLOAT),
        ("CLK_FLOAT", im::CL_FLOAT),
        ("CLK_UNORM_INT_101010_2", im::CL_UNORM_INT_101010_2),
    ]
}

#[cfg(test)]
mod tests {
    use super::PreludeCache;
    use crate::caps::DeviceCaps;
    use crate::options::BuildOptions;
    use crate::preprocess::testing::{errors, expands_to, norm, run, run_in, run_opts, run_with};
    use std::sync::Arc;

    #[test]
    fn predefined_macros() {
        let probe = "__OPENCL_VERSION__ __OPENCL_C_VERSION__ CL_VERSION_1_0 CL_VERSION_1_1 \
                     CL_VERSION_1_2 CL_VERSION_2_0 CL_VERSION_3_0 __ENDIAN_LITTLE__ __STDC__ \
                     __STDC_HOSTED__ __IMAGE_SUPPORT__ __FAST_RELAXED_MATH__ FP_FAST_FMA \
                     FP_FAST_FMAF __opencl_c_int64 __opencl_c_images cl_khr_fp64 \
                     cl_khr_byte_addressable_store __EMBEDDED_PROFILE__";
        let o = run(probe);
        assert_eq!(o.log, "");
        assert_eq!(
            o.text,
            "300 120 100 110 120 200 300 1 1 0 __IMAGE_SUPPORT__ __FAST_RELAXED_MATH__ \
             FP_FAST_FMA FP_FAST_FMAF __opencl_c_int64 __opencl_c_images 1 1 \
             __EMBEDDED_PROFILE__"
        );
        // Feature macros only for OpenCL C 3.0.
        let caps = DeviceCaps {
            image_support: true,
            float64: true,
            int64: false,
            ..DeviceCaps::full()
        };
        let o3 = BuildOptions::parse("-cl-std=CL3.0 -cl-fast-relaxed-math").expect("options");
        let o = run_with(probe, &o3, &caps, &[]);
        assert_eq!(
            o.text,
            "300 300 100 110 120 200 300 1 1 0 1 1 FP_FAST_FMA FP_FAST_FMAF \
             __opencl_c_int64 1 1 1 1"
        );
        let o2 = BuildOptions::parse("-cl-std=CL2.0").expect("options");
        let o = run_with(
            "__OPENCL_C_VERSION__ __opencl_c_fp64 cl_khr_fp64",
            &o2,
            &caps,
            &[],
        );
        assert_eq!(o.text, "200 __opencl_c_fp64 1");
        // cl_ext_float_atomics: the extension everywhere, its features in
        // OpenCL C 3.0 only.
        let probe = "cl_ext_float_atomics __opencl_c_ext_fp32_global_atomic_add \
                     __opencl_c_ext_fp64_local_atomic_min_max \
                     __opencl_c_ext_fp16_global_atomic_add";
        let o = run_with(probe, &o2, &caps, &[]);
        assert_eq!(
            o.text,
            "1 __opencl_c_ext_fp32_global_atomic_add __opencl_c_ext_fp64_local_atomic_min_max \
             __opencl_c_ext_fp16_global_atomic_add"
        );
        let o = run_with(probe, &o3, &caps, &[]);
        assert_eq!(o.text, "1 1 1 __opencl_c_ext_fp16_global_atomic_add");
        expands_to(
            "__kernel_exec(64, float4) void k() {}",
            "__kernel __attribute__((work_group_size_hint(64, 1, 1))) \
             __attribute__((vec_type_hint(float4))) void k() {}",
        );
        expands_to("kernel_exec(8, int) void k() {}", "__kernel __attribute__((work_group_size_hint(8, 1, 1))) __attribute__((vec_type_hint(int))) void k() {}");
    }

    #[test]
    fn command_line_macros_in_order() {
        let o = run_opts(
            "X Y Z F(3) __OPENCL_VERSION__ W",
            "-DX=2 -DY -UX -D'F(a)=a*2' -DZ= -U__OPENCL_VERSION__ -DW='\"s t\"'",
        );
        assert_eq!(o.log, "");
        assert_eq!(norm(&o.text), norm("X 1 3*2 __OPENCL_VERSION__ \"s t\""));
        // Redefining a predefined macro warns, like clang.
        let o = run_opts("CL_VERSION_1_0", "-DCL_VERSION_1_0=7");
        assert_eq!(o.text, "7");
        assert!(
            o.log
                .contains("<command line>:1:9: warning: 'CL_VERSION_1_0' macro redefined"),
            "{}",
            o.log
        );
        let o = run_opts("", "-D'F(=1'");
        assert_eq!(errors(&o), ["invalid token in macro parameter list"]);
    }

    /// Builds on any thread may share a device's cache.
    #[test]
    fn the_cache_can_be_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<PreludeCache>();
    }

    #[test]
    fn cached_predefines_do_not_leak_between_builds() {
        let prelude = PreludeCache::default();
        let run = |src: &str, options: &str| {
            let options = BuildOptions::parse(options).expect("options");
            run_in(&prelude, src, &options, &DeviceCaps::full(), &[])
        };
        let expands_to = |src: &str, expected: &str| {
            let o = run(src, "");
            assert_eq!(o.log, "", "unexpected diagnostics for {src:?}");
            assert_eq!(norm(&o.text), norm(expected), "source: {src:?}");
        };
        // The second of each pair reuses the first's cached macro table.
        for _ in 0..2 {
            expands_to("__OPENCL_VERSION__ CL_VERSION_1_2", "300 120");
        }
        let cached = prelude.0.lock().expect("cache").clone();
        assert!(cached.is_some(), "the first build fills the cache");
        // `#undef` and `-D` change this build's copy only.
        let o = run("#undef __OPENCL_VERSION__\n__OPENCL_VERSION__", "");
        assert_eq!(norm(&o.text), "__OPENCL_VERSION__");
        let o = run("__ENDIAN_LITTLE__", "-D __ENDIAN_LITTLE__=7 -w");
        assert_eq!(norm(&o.text), "7");
        expands_to("__OPENCL_VERSION__ __ENDIAN_LITTLE__", "300 1");
        let now = prelude.0.lock().expect("cache").clone();
        assert!(
            cached.zip(now).is_some_and(|(a, b)| Arc::ptr_eq(&a, &b)),
            "builds with the same predefines keep the table"
        );
        // Other options, other predefines, in alternation.
        for _ in 0..2 {
            let o = run("__OPENCL_C_VERSION__", "-cl-std=CL3.0");
            assert_eq!(norm(&o.text), "300");
            let o = run("__OPENCL_C_VERSION__", "-cl-std=CL2.0");
            assert_eq!(norm(&o.text), "200");
        }
        // A build that stopped in the middle of an expansion leaves no
        // predefined macro disabled for the next.
        let o = run("#define F(x) __OPENCL_VERSION__ x\nF(", "");
        assert!(!errors(&o).is_empty());
        expands_to("__OPENCL_VERSION__", "300");
        // The notes of redefinitions still point into `<built-in>`.
        let o = run("#define __ENDIAN_LITTLE__ 2\n", "");
        assert!(o.log.contains("<built-in>:"), "{}", o.log);
    }
}
