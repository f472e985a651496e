//! clvulkan's OpenCL C compiler.
//!
//! The pipeline, one module per stage:
//! source -> [`preprocess`] (with [`lexer`]) -> [`parse`] into the [`ast`] ->
//! [`check`] (types, layout, address spaces) into the [`hir`] ->
//! [`analysis`] (where pointers point, before anything is emitted) ->
//! [`lower`] to a naga module per kernel -> [`spirv`] (validation, SPIR-V
//! writing) + [`reflect`] (what the runtime needs to know to launch each
//! kernel). `docs/translator-design.md` draws the whole.
//!
//! `front` drives the first three stages on the calling thread: the whole
//! source is preprocessed, then the parser hands the checker one external
//! declaration at a time. A [`Session`] keeps what later builds can reuse
//! (the table the predefined macros leave); the free functions use a fresh
//! one.
//!
//! Every stage reports its [`diagnostic::Diagnostics`], kept in stage order,
//! so that a failed build logs all of its errors, clang-style.

pub mod analysis;
pub mod ast;
pub mod atomic_order;
pub mod builtins;
pub mod caps;
pub mod check;
mod cores;
pub mod diagnostic;
mod front;
mod gotos;
pub mod hir;
pub mod il;
pub mod image;
mod int_constant;
mod language;
pub mod layout;
pub mod lexer;
pub mod literal;
pub mod lower;
pub mod options;
pub mod parse;
pub mod preprocess;
pub mod printf;
pub mod reflect;
pub mod specialization;
pub mod spirv;
mod spirv_images;
mod stack;
pub mod token;
pub mod types;
pub mod unit;
mod unroll;

pub use caps::{DenormMode, Denormals, DeviceCaps, Independence, SubgroupOps};
use front::FrontEnd;
pub use options::{BuildOptions, OptionError};
pub use reflect::{ArgKind, KernelArg, KernelReflection, ProgramGlobals, PushConstantHeader};
pub use specialization::Specialization;
pub use spirv::Kernel;
pub use unit::{compile_unit, CompiledUnit};

/// The translator's version; program binaries record it so that one built
/// by another version is rejected as stale.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The name the main source is given in diagnostics, as clang does for
/// in-memory sources.
pub const MAIN_FILE_NAME: &str = "<source>";

/// A successfully compiled program: its kernels, the block of its
/// program-scope `__global` variables, and the build log, which holds any
/// warnings.
#[derive(Debug)]
pub struct Program {
    pub kernels: Vec<Kernel>,
    pub globals: reflect::ProgramGlobals,
    pub log: String,
}

impl Program {
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.reflection.name == name)
    }
}

/// Why a build failed.
#[derive(Debug)]
pub enum BuildError {
    /// The option string is malformed (`CL_INVALID_BUILD_OPTIONS`).
    InvalidOptions(OptionError),
    /// The source has errors (`CL_BUILD_PROGRAM_FAILURE`); `log` lists all.
    Compile { log: String },
}

impl std::fmt::Display for BuildError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BuildError::InvalidOptions(e) => write!(f, "invalid build options: {e}"),
            BuildError::Compile { log } => f.write_str(log),
        }
    }
}

impl std::error::Error for BuildError {}

/// What a caller keeps between builds to make later ones cheaper: the
/// macro table the predefined macros leave, whose making is most of a
/// small kernel's front end (see [`preprocess::PreludeCache`]). A runtime
/// keeps one per device and may build through it on any thread; the free
/// functions ([`build`], [`check_source`], ...) start a fresh one each
/// call.
#[derive(Default)]
pub struct Session {
    prelude: preprocess::PreludeCache,
}

impl Session {
    pub fn new() -> Self {
        Self::default()
    }

    /// Compiles OpenCL C `source` with the command-line `options` for a
    /// device with `caps`.
    pub fn build(
        &self,
        source: &str,
        options: &str,
        caps: &DeviceCaps,
    ) -> Result<Program, BuildError> {
        let options = BuildOptions::parse(options).map_err(BuildError::InvalidOptions)?;
        self.build_named(MAIN_FILE_NAME, source, &options, caps)
    }

    /// [`Session::build`] with options already parsed, for a source with a
    /// file name (the offline compiler's), so diagnostics and `__FILE__`
    /// name it.
    pub fn build_named(
        &self,
        file_name: &str,
        source: &str,
        options: &BuildOptions,
        caps: &DeviceCaps,
    ) -> Result<Program, BuildError> {
        let mut front = FrontEnd::run(&self.prelude, file_name, source, options, caps);
        let lowered = if front.diags.has_errors() {
            lower::Lowered {
                kernels: Vec::new(),
                globals: reflect::ProgramGlobals::default(),
            }
        } else {
            unroll::unroll(&mut front.program, options);
            let analysis = analysis::analyse(&front.program);
            lower::lower(&front.program, &analysis, options, caps, &mut front.diags)
        };
        let log = front.log()?;
        Ok(Program {
            kernels: lowered.kernels,
            globals: lowered.globals,
            log,
        })
    }

    /// Runs the front end only (preprocess, parse, check) and returns the
    /// diagnostics log; `Err` when it has errors. For front-end tests,
    /// fuzzing and benchmarks of what precedes lowering.
    pub fn check_source(
        &self,
        source: &str,
        options: &str,
        caps: &DeviceCaps,
    ) -> Result<String, BuildError> {
        let options = BuildOptions::parse(options).map_err(BuildError::InvalidOptions)?;
        FrontEnd::run(&self.prelude, MAIN_FILE_NAME, source, &options, caps).log()
    }
}

/// Compiles OpenCL C `source` with the command-line `options` for a device
/// with `caps`.
pub fn build(source: &str, options: &str, caps: &DeviceCaps) -> Result<Program, BuildError> {
    Session::new().build(source, options, caps)
}

/// [`build`] with options already parsed.
pub fn build_with(
    source: &str,
    options: &BuildOptions,
    caps: &DeviceCaps,
) -> Result<Program, BuildError> {
    build_named(MAIN_FILE_NAME, source, options, caps)
}

/// [`build_with`] for a source with a file name (the offline compiler), so
/// diagnostics and `__FILE__` name it.
pub fn build_named(
    file_name: &str,
    source: &str,
    options: &BuildOptions,
    caps: &DeviceCaps,
) -> Result<Program, BuildError> {
    Session::new().build_named(file_name, source, options, caps)
}

/// [`Session::check_source`] with a fresh session.
pub fn check_source(source: &str, options: &str, caps: &DeviceCaps) -> Result<String, BuildError> {
    Session::new().check_source(source, options, caps)
}

/// The size, alignment and member offsets of a type, as the layout engine
/// computed them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeLayout {
    /// `struct S`, `union U`, or a typedef name.
    pub name: String,
    pub size: u64,
    pub align: u64,
    /// Named members and their byte offsets, in declaration order.
    pub fields: Vec<(String, u64)>,
}

/// The layout of every named struct, union and typedef that `source`
/// declares at program scope (for tests that compare with the host
/// compiler, and for tools).
pub fn type_layouts(
    source: &str,
    options: &str,
    caps: &DeviceCaps,
) -> Result<Vec<TypeLayout>, BuildError> {
    let options = BuildOptions::parse(options).map_err(BuildError::InvalidOptions)?;
    let prelude = preprocess::PreludeCache::default();
    let front = FrontEnd::run(&prelude, MAIN_FILE_NAME, source, &options, caps);
    front.log()?;
    let program = &front.program;
    let (types, names) = (&program.types, &program.names);
    let fields_of = |ty: types::Type| match ty {
        types::Type::Record(r) => types[r]
            .fields
            .iter()
            .filter(|f| f.name != hir::Symbol::EMPTY)
            .map(|f| (names[f.name].to_string(), f.offset))
            .collect(),
        _ => Vec::new(),
    };
    let mut out: Vec<TypeLayout> = types
        .records()
        .filter(|(_, r)| r.complete && r.name != hir::Symbol::EMPTY)
        .map(|(handle, r)| {
            let ty = types::Type::Record(handle);
            TypeLayout {
                name: program.display(ty),
                size: r.size,
                align: r.align,
                fields: fields_of(ty),
            }
        })
        .collect();
    for &(name, ty, align) in &program.typedefs {
        let (Some(size), Some(natural)) = (types.size(ty), types.align(ty)) else {
            continue;
        };
        out.push(TypeLayout {
            name: names[name].to_string(),
            size,
            align: align.unwrap_or(natural),
            fields: fields_of(ty),
        });
    }
    Ok(out)
}

/// Runs only the preprocessor (`clvulkan compile -E`): the token stream as
/// text, and the diagnostics log.
pub fn preprocess_to_string(
    source: &str,
    options: &BuildOptions,
    caps: &DeviceCaps,
) -> (String, String) {
    let mut sources = diagnostic::SourceMap::default();
    let main = sources.add(MAIN_FILE_NAME, source);
    let mut diags = diagnostic::Diagnostics::default();
    let input = preprocess::PreprocessInput {
        options,
        caps,
        embedded_headers: &[],
        prelude: &preprocess::PreludeCache::default(),
    };
    let tokens = preprocess::preprocess(&mut sources, main, &input, &mut diags);
    (
        preprocess::tokens_to_string(&tokens),
        diags.render(&sources),
    )
}
